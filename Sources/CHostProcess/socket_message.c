#define _GNU_SOURCE
#include "socket_message.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

ssize_t modhost_send_with_descriptors(int fd, const void *bytes, size_t size, const int *descriptors, int count) {
    if (count < 0 || count > MODHOST_MESSAGE_DESCRIPTORS || (count > 0 && size == 0)) {
        errno = EINVAL;
        return -1;
    }
    struct iovec part = {.iov_base = (void *)bytes, .iov_len = size};
    union {
        char buffer[CMSG_SPACE(sizeof(int) * MODHOST_MESSAGE_DESCRIPTORS)];
        struct cmsghdr align;
    } control;
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    if (count > 0) {
        memset(&control, 0, sizeof control);
        message.msg_control = control.buffer;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
        memcpy(CMSG_DATA(header), descriptors, sizeof(int) * (size_t)count);
    }
    ssize_t sent;
    do sent = sendmsg(fd, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t modhost_receive_with_descriptors(int fd, void *bytes, size_t capacity, int *descriptors, int *count, int flags) {
    *count = 0;
    struct iovec part = {.iov_base = bytes, .iov_len = capacity};
    union {
        char buffer[CMSG_SPACE(sizeof(int) * MODHOST_MESSAGE_DESCRIPTORS)];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {
        .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.buffer, .msg_controllen = sizeof control.buffer};
    ssize_t received;
    do received = recvmsg(fd, &message, MSG_CMSG_CLOEXEC | flags);
    while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t carried = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int *passed = (int *)CMSG_DATA(header);
        for (size_t index = 0; index < carried; index++) {
            if (*count < MODHOST_MESSAGE_DESCRIPTORS) {
                descriptors[(*count)++] = passed[index];
            } else {
                close(passed[index]);
            }
        }
    }
    if (message.msg_flags & MSG_CTRUNC) {
        for (int index = 0; index < *count; index++) close(descriptors[index]);
        *count = 0;
        errno = EMSGSIZE;
        return -1;
    }
    return received;
}
