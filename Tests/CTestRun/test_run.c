#define _GNU_SOURCE
/* One folder of temporary files per test process: <TMPDIR or /tmp>/modhost-test-runs-<uid>/run-…,
 * made and set as TMPDIR when the test executable is loaded, before any test runs, and removed
 * as the process ends. Every folder a test makes (NSTemporaryDirectory, the harness's data
 * folders, the children's) goes under it. A full `swift test` made about 2 000 folders in /tmp
 * and left them: over many runs they filled the disk. The folder of an earlier run whose
 * process ended without removing it (killed, crashed) is removed by the next run: each run
 * holds an flock on its folder's `.lock` while it lives. */
#include "test_run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char run_folder[4096];

const char *modhost_test_run_folder(void) { return run_folder; }

/* Whether the last pass met a folder it could not read (opened up now, gone into next pass). */
static int unreadable_seen;

/* Folders a test made read-only (or unreadable) are opened up first, so that what is in them
 * can go. */
static int open_up(const char *path, const struct stat *status, int type, struct FTW *where) {
    (void)where;
    if (type == FTW_DNR) unreadable_seen = 1;
    if ((type == FTW_D || type == FTW_DNR) && (status->st_mode & 0700) != 0700) chmod(path, (status->st_mode & 07777) | 0700);
    return 0;
}

static int remove_entry(const char *path, const struct stat *status, int type, struct FTW *where) {
    (void)status;
    (void)where;
    if (type == FTW_DP) {
        rmdir(path);
    } else {
        unlink(path);
    }
    return 0;
}

static void remove_tree(const char *path) {
    for (int pass = 0; pass < 16; pass++) {
        unreadable_seen = 0;
        nftw(path, open_up, 32, FTW_PHYS | FTW_MOUNT);
        if (!unreadable_seen) break;
    }
    nftw(path, remove_entry, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* Whether `root` is a folder of this user's that nobody else may write (not a symlink). */
static int is_own_folder(const char *root) {
    struct stat status;
    return lstat(root, &status) == 0 && S_ISDIR(status.st_mode) && status.st_uid == geteuid() && (status.st_mode & 022) == 0;
}

void modhost_test_remove_ended_runs(const char *root) {
    DIR *folder = opendir(root);
    if (folder == NULL) return;
    struct dirent *entry;
    while ((entry = readdir(folder)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char path[4096], lock_path[4200];
        int starting = strncmp(entry->d_name, "new-", 4) == 0;
        snprintf(path, sizeof path, "%s/%s", root, entry->d_name);
        snprintf(lock_path, sizeof lock_path, "%s/.lock", path);
        /* A run being made ("new-…", renamed once its lock is held) is left, unless it is an
         * hour old. */
        struct stat status;
        if (starting && (lstat(path, &status) != 0 || time(NULL) - status.st_mtime < 3600)) continue;
        int lock = open(lock_path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
        if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) != 0) {
            close(lock);
            continue;
        }
        remove_tree(path);
        if (lock >= 0) close(lock);
    }
    closedir(folder);
}

/* The root of the run folders under `base`, made if missing; 0 when it cannot be used. */
static int make_root(const char *base, char *root, size_t size) {
    snprintf(root, size, "%s/modhost-test-runs-%u", base, (unsigned)geteuid());
    if (mkdir(root, 0755) != 0 && errno != EEXIST) return 0;
    return is_own_folder(root);
}

static pid_t run_owner;

__attribute__((constructor)) static void make_run_folder(void) {
    const char *base = getenv("TMPDIR");
    char root[4096];
    if (base == NULL || base[0] != '/' || !make_root(base, root, sizeof root)) {
        if (!make_root("/tmp", root, sizeof root)) return;
    }
    modhost_test_remove_ended_runs(root);
    /* Made under a name no cleaner takes, its lock taken, then given its name: a run starting
     * meanwhile never sees it unlocked. A unique name (runs in other pid namespaces share this
     * folder) of digits only: tests read paths in messages, and random letters ("-x…", "info")
     * read as words there. */
    char made[4096];
    struct timespec now;
    int tries = 0;
    do {
        clock_gettime(CLOCK_REALTIME, &now);
        snprintf(made, sizeof made, "%s/new-%d-%ld", root, (int)getpid(), (long)now.tv_nsec);
    } while (mkdir(made, 0700) != 0 && errno == EEXIST && ++tries < 100);
    if (tries >= 100 || access(made, F_OK) != 0) return;
    /* Others (the tests' nobody) go through it whatever the umask. */
    chmod(made, 0755);
    char lock_path[4200];
    snprintf(lock_path, sizeof lock_path, "%s/.lock", made);
    /* Kept open for the process's life; closed in children at exec. */
    int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    char folder[4096];
    snprintf(folder, sizeof folder, "%s/run-%s", root, made + strlen(root) + strlen("/new-"));
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0 || rename(made, folder) != 0) {
        if (lock >= 0) close(lock);
        remove_tree(made);
        return;
    }
    snprintf(run_folder, sizeof run_folder, "%s", folder);
    run_owner = getpid();
    setenv("TMPDIR", run_folder, 1);
}

/* Only in the process that made it: a child forked without exec ends too. */
__attribute__((destructor)) static void remove_run_folder(void) {
    if (run_folder[0] != '\0' && getpid() == run_owner) remove_tree(run_folder);
}
