/* tests/unit/test_child.c - a forked child blocked for good (renderer/base/child.h):
 * one that waits on a pipe nobody writes uses no CPU and is killed; one that
 * writes, or that works before it writes, is waited for. */
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "renderer/base/child.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* Forks body(write end, never-written read end); returns the child's pid, *rfd the result pipe. */
static pid_t fork_child(void (*body)(int wfd, int block_fd), int *rfd)
{
    int out[2], never[2];
    if (pipe(out) != 0 || pipe(never) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(out[0]);
        close(never[1]);
        body(out[1], never[0]);
        _exit(0);
    }
    close(out[1]);
    close(never[0]);
    close(never[1]); /* the parent keeps no write end: the child's read waits only on itself */
    *rfd = out[0];
    return pid;
}

static void blocks(int wfd, int block_fd)
{
    int keep[2];
    char c;
    (void)wfd;
    (void)block_fd;
    if (pipe(keep) == 0) /* a pipe with a writer (itself) and no data: read waits forever, using no CPU */
        (void)!read(keep[0], &c, 1);
}

static void writes(int wfd, int block_fd)
{
    (void)block_fd;
    (void)!write(wfd, "x", 1);
}

static void works_then_writes(int wfd, int block_fd)
{
    (void)block_fd;
    /* busy past MMD_CHILD_BLOCKED_SECONDS before its result: CPU time moves, so it is not killed */
    volatile unsigned long x = 0;
    while (clock() < (clock_t)(MMD_CHILD_BLOCKED_SECONDS + 1) * CLOCKS_PER_SEC)
        x++;
    (void)!write(wfd, "x", 1);
}

static int reap(pid_t pid)
{
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

TEST(blocked_child_is_killed)
{
    int fd = -1;
    pid_t pid = fork_child(blocks, &fd);
    CHECK(pid > 0);
    CHECK(!mmd_child_wait_running(fd, pid));
    int status = reap(pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    close(fd);
}

TEST(running_child_is_waited_for)
{
    int fd = -1;
    pid_t pid = fork_child(writes, &fd);
    CHECK(mmd_child_wait_running(fd, pid));
    CHECK(WIFEXITED(reap(pid)));
    close(fd);
    pid = fork_child(works_then_writes, &fd);
    CHECK(mmd_child_wait_running(fd, pid));
    CHECK(WIFEXITED(reap(pid)));
    close(fd);
}

TEST(watch)
{
    mmd_child_watch w;
    mmd_child_watch_start(&w, getpid());
    CHECK(!mmd_child_blocked(&w)); /* just started */
    mmd_child_watch_start(&w, 0x7ffffff0); /* no such process: /proc cannot tell, never blocked */
    CHECK(!mmd_child_blocked(&w));
}

int main(void)
{
    RUN(blocked_child_is_killed);
    RUN(running_child_is_waited_for);
    RUN(watch);
    return test_finish();
}
