/* A bare libauparse event walk, the baseline for `vigil ingest` in
 * tests/bench/analyzer: auparse_init(AUSOURCE_FILE), next event, count
 * its records, nothing else.
 * usage: auparse-walk FILE   prints "EVENTS events RECORDS records" */
#include <auparse.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	unsigned long events = 0, records = 0;
	auparse_state_t *au;

	if (argc != 2) {
		fprintf(stderr, "usage: auparse-walk FILE\n");
		return 2;
	}
	au = auparse_init(AUSOURCE_FILE, argv[1]);
	if (!au) {
		perror(argv[1]);
		return 2;
	}
	while (auparse_next_event(au) > 0) {
		events++;
		records += auparse_get_num_records(au);
	}
	auparse_destroy(au);
	printf("%lu events %lu records\n", events, records);
	return 0;
}
