/* renderer/base/child.c - a forked child blocked for good (child.h). */
#include "renderer/base/child.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The CPU time pid has used, in clock ticks; -1 when unknown. */
static long long cpu_ticks(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the name in parentheses may hold spaces */
    unsigned long long ut = 0, stime = 0;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &stime) != 2)
        return -1;
    return (long long)(ut + stime);
}

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void mmd_child_watch_start(mmd_child_watch *w, pid_t pid)
{
    w->pid = pid;
    w->ticks = cpu_ticks(pid);
    w->since_ns = now_ns();
}

bool mmd_child_blocked(mmd_child_watch *w)
{
    long long t = cpu_ticks(w->pid);
    int64_t now = now_ns();
    if (t < 0 || t != w->ticks) {
        w->ticks = t;
        w->since_ns = now;
        return false;
    }
    return now - w->since_ns >= (int64_t)MMD_CHILD_BLOCKED_SECONDS * 1000000000;
}

bool mmd_child_wait_running(int fd, pid_t pid)
{
    mmd_child_watch w;
    mmd_child_watch_start(&w, pid);
    for (;;) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int r = poll(&pfd, 1, 1000);
        if (r > 0 || (r < 0 && errno != EINTR))
            return true;
        if (mmd_child_blocked(&w)) {
            kill(pid, SIGKILL);
            return false;
        }
    }
}
