/* renderer/base/child.h - watching a forked child for being blocked for good.
 *
 *   mmd_child_watch w; mmd_child_watch_start(&w, pid);
 *   if (mmd_child_blocked(&w)) kill(pid, SIGKILL);      // checked as the parent waits
 *   ok = mmd_child_wait_running(fd, pid);                // or: wait for fd, killing a blocked child
 *
 * A child forked while another thread of the parent held a lock it then
 * needs waits forever: glibc's malloc is fork-safe, but GCC 12's
 * AddressSanitizer allocator has no fork handlers (measured: 2 of 300 forks
 * beside a thread that allocates hang in malloc under ASan), nor are
 * libraries' own locks. Such a child uses no CPU, so its parent watches its
 * CPU time (utime + stime of /proc/PID/stat): none for
 * MMD_CHILD_BLOCKED_SECONDS means blocked for good. Used by the effect
 * translator's glslang child (fx/isolate.c) and the texture decoders
 * (image/decode_child.c), whose children never wait on anything but their
 * own work. Thread-safe (no shared state). */
#ifndef MMD_RENDERER_BASE_CHILD_H
#define MMD_RENDERER_BASE_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define MMD_CHILD_BLOCKED_SECONDS 3 /* no CPU time for this long: a child blocked for good */

typedef struct mmd_child_watch {
    pid_t pid;
    long long ticks;  /* its CPU time when last seen to move, -1 unknown */
    int64_t since_ns; /* CLOCK_MONOTONIC when it last moved */
} mmd_child_watch;

void mmd_child_watch_start(mmd_child_watch *w, pid_t pid);
/* True when the child has used no CPU for MMD_CHILD_BLOCKED_SECONDS since the
 * watch last saw its CPU time move (never when /proc cannot tell). */
bool mmd_child_blocked(mmd_child_watch *w);
/* Waits until fd is readable or closed (true), or kills (SIGKILL) a child
 * that is blocked for good (false). */
bool mmd_child_wait_running(int fd, pid_t pid);

#endif
