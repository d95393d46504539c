// modhost-socket-floor [ROUNDS]: the floor for a call into a module in a process of its own.
// Two processes, a socketpair between them, 64 bytes sent and the same 64 bytes sent back,
// ROUNDS times (default 20000, after 1000 not counted); prints the median and the 99th
// percentile of one round trip in microseconds ("p50 10.3 p99 21.7"). modhost-bench's
// `isolation` group sets a route call to an isolated module beside it. Exit status 1 names
// what failed, so a broken floor never passes for a fast one.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { message_size = 64, warm_up = 1000 };

/* Sends or receives exactly `size` bytes; 0 on success. */
static int transfer(int fd, unsigned char *bytes, size_t size, int sending) {
    while (size > 0) {
        ssize_t done = sending ? send(fd, bytes, size, MSG_NOSIGNAL) : recv(fd, bytes, size, 0);
        if (done < 0 && errno == EINTR) continue;
        if (done <= 0) return -1;
        bytes += done;
        size -= (size_t)done;
    }
    return 0;
}

static double now_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

static int compare(const void *left, const void *right) {
    double a = *(const double *)left, b = *(const double *)right;
    return (a > b) - (a < b);
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    if (rounds < 1 || rounds > 10000000) {
        fprintf(stderr, "modhost-socket-floor: ROUNDS must be 1 to 10000000\n");
        return 1;
    }
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        perror("modhost-socket-floor: socketpair");
        return 1;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("modhost-socket-floor: fork");
        return 1;
    }
    unsigned char message[message_size];
    if (child == 0) {
        close(pair[0]);
        while (transfer(pair[1], message, sizeof message, 0) == 0)
            if (transfer(pair[1], message, sizeof message, 1) != 0) break;
        _exit(0);
    }
    close(pair[1]);
    double *times = malloc((size_t)rounds * sizeof *times);
    if (times == NULL) {
        fprintf(stderr, "modhost-socket-floor: out of memory\n");
        return 1;
    }
    memset(message, 'x', sizeof message);
    for (long round = -warm_up; round < rounds; round++) {
        double start = now_us();
        if (transfer(pair[0], message, sizeof message, 1) != 0 || transfer(pair[0], message, sizeof message, 0) != 0) {
            fprintf(stderr, "modhost-socket-floor: the echoing process went away\n");
            return 1;
        }
        if (round >= 0) times[round] = now_us() - start;
    }
    close(pair[0]);
    waitpid(child, NULL, 0);
    qsort(times, (size_t)rounds, sizeof *times, compare);
    printf("p50 %.2f p99 %.2f\n", times[rounds / 2], times[(rounds * 99) / 100]);
    free(times);
    return 0;
}
