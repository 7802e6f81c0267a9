// SPDX-License-Identifier: GPL-2.0-only
/* tiny: the smallest program to exec, built static, for the exec benchmark. */
int main(void)
{
	return 0;
}
