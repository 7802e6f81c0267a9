// SPDX-License-Identifier: GPL-2.0
/* Self-test: a VM helper that no longer builds (an undeclared name). */
int main(void)
{
	return no_such_function();
}
