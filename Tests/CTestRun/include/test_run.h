#ifndef MODHOST_TEST_RUN_H
#define MODHOST_TEST_RUN_H

/* The folder this test process keeps its temporary files in (its TMPDIR from load on), or ""
 * when it could not be made (then TMPDIR is as it was). */
const char *modhost_test_run_folder(void);

/* Removes the run folders in `root` that no live process holds (the flock on their `.lock`),
 * read-only folders in them included; what a test process does as it loads. */
void modhost_test_remove_ended_runs(const char *root);

#endif
