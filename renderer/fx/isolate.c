/* renderer/fx/isolate.c - glslang in a child process (translate_internal.h).
 *
 * glslang is not hardened against hostile input: mutated effects crash its
 * HLSL grammar (a NULL node after an error, measured with glslang 12.0 on
 * Debian 12). So each compile runs in a fork()ed child with a time limit
 * (alarm) and an address-space limit; the child writes its result to a
 * pipe and _exit()s (no atexit handlers, no leak report). A child that dies
 * is an error of the effect, with the signal that ended it. The child's
 * stdout and stderr are /dev/null: what glslang or SPIRV-Tools print (text
 * from a hostile file among it) never reaches the user's terminal.
 *
 * The pipe message: u8 status (MMD_OK or the error), u32 log length, log,
 * u32 word count, words.
 *
 * A child forked while another thread of the parent held a lock it then
 * needs waits forever: glibc's malloc is fork-safe, but GCC 12's
 * AddressSanitizer allocator has no fork handlers (measured: 2 of 300 forks
 * beside a thread that allocates hang in malloc under ASan, 0 of 300
 * without), nor are glslang's own locks. Such a child uses no CPU, so the
 * parent watches the child's CPU time while it waits (base/child.h): a
 * child with none for MMD_CHILD_BLOCKED_SECONDS is killed and forked again,
 * up to TRIES times, then the pass gets an error naming the cause.
 *
 * The fuzz build (`make fuzz` defines MMD_FX_COMPILE_IN_PROCESS) calls glslang
 * in this process instead: a child per input would slow libFuzzer a
 * hundredfold. A crash there is glslang's (a finding to triage: the same
 * input through this file's child must be an error of the pass); the real
 * build never defines it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "renderer/base/child.h"
#include "renderer/base/sanitizer.h"
#include "renderer/fx/translate_internal.h"

#ifdef MMD_FX_COMPILE_IN_PROCESS
mmd_status mmd_fx_compile_isolated(const mmd_fx_compile_job *job, uint32_t **words, size_t *count, mmd_error *err)
{
    mmd_status st = mmd_fx_hlsl_to_spirv(job->hlsl, job->len, job->name, job->entry, job->stage, words, count, err);
    if (st == MMD_OK && *count > job->max_words) {
        free(*words);
        *words = NULL;
        return mmd_fail(err, MMD_E_LIMIT, "glslang made %zu words of SPIR-V (at most %zu)", *count, job->max_words);
    }
    return st;
}
#else
#define TRIES 3           /* forks of a compile whose children were blocked */

static bool write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        c += w;
        n -= (size_t)w;
    }
    return true;
}

static bool read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        c += r;
        n -= (size_t)r;
    }
    return true;
}

#ifndef MMD_ASAN
/* The address space mapped now (the parent's, inherited), 0 when unknown. */
static unsigned long long mapped_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? pages * (unsigned long long)page : 0;
}
#endif

static void child(int fd, const mmd_fx_compile_job *job)
{
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC); /* glslang's and SPIRV-Tools' prints, a crash */
    if (null >= 0) {                                    /* report: never onto the user's terminal */
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
    }
    signal(SIGALRM, SIG_DFL); /* the parent's handler, if any, must not catch it */
    static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        signal(crash_signals[i], SIG_DFL); /* a sanitizer's handler would exit(1): a crash is its signal */
    alarm(job->seconds);
#ifndef MMD_ASAN /* ASan reserves terabytes of shadow: no address-space cap under it */
    unsigned long long now = mapped_bytes();
    if (now) {
        struct rlimit rl = {(rlim_t)(now + job->memory), (rlim_t)(now + job->memory)};
        setrlimit(RLIMIT_AS, &rl);
    }
#endif
    uint32_t *words = NULL;
    size_t count = 0;
    mmd_error e = {0};
    mmd_status st = mmd_fx_hlsl_to_spirv(job->hlsl, job->len, job->name, job->entry, job->stage, &words, &count, &e);
    if (st == MMD_OK && count > job->max_words)
        st = mmd_fail(&e, MMD_E_LIMIT, "glslang made %zu words of SPIR-V (at most %zu)", count, job->max_words);
    if (st == MMD_E_NOMEM) /* std::bad_alloc: the address-space cap */
        st = mmd_fail(&e, MMD_E_LIMIT, "glslang needed more than %zu MiB", job->memory >> 20);
    uint8_t code = (uint8_t)st;
    uint32_t loglen = st ? (uint32_t)strnlen(e.msg, sizeof e.msg - 1) : 0, n = st ? 0 : (uint32_t)count;
    bool sent = write_all(fd, &code, 1) && write_all(fd, &loglen, 4) && write_all(fd, e.msg, loglen) &&
                write_all(fd, &n, 4) && write_all(fd, words, (size_t)n * 4);
    _exit(sent ? 0 : 1);
}

/* Reads the child's message; false when it is short. *st: the child's
 * status (err says why when it is not MMD_OK). */
static bool receive(int fd, size_t max_words, uint32_t **words, size_t *count, mmd_error *err, mmd_status *st)
{
    uint8_t code = 0;
    uint32_t loglen = 0, n = 0;
    char buf[512];
    if (!read_all(fd, &code, 1) || !read_all(fd, &loglen, 4) || loglen >= sizeof buf || !read_all(fd, buf, loglen) ||
        !read_all(fd, &n, 4) || n > max_words)
        return false;
    buf[loglen] = '\0';
    *st = (mmd_status)code;
    if (*st != MMD_OK || !n) {
        if (*st == MMD_OK)
            *st = MMD_E_UNSUPPORTED;
        mmd_fail(err, *st, "%s", loglen ? buf : "glslang made no SPIR-V");
        return true;
    }
    uint32_t *w = malloc((size_t)n * 4);
    if (!w || !read_all(fd, w, (size_t)n * 4)) {
        free(w);
        return false;
    }
    *words = w;
    *count = n;
    return true;
}

static mmd_status child_died(const mmd_fx_compile_job *job, int status, mmd_error *err)
{
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        return mmd_fail(err, MMD_E_LIMIT, "glslang took more than %u s", job->seconds);
    if (WIFSIGNALED(status))
        return mmd_fail(err, MMD_E_UNSUPPORTED, "glslang crashed on this HLSL (signal %d)", WTERMSIG(status));
    return mmd_fail(err, MMD_E_UNSUPPORTED, "glslang's process failed (exit status %d)",
                    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* One child: MMD_OK, the child's error, or child_died's; *blocked when it
 * was killed for using no CPU. */
static mmd_status compile_once(const mmd_fx_compile_job *job, uint32_t **words, size_t *count, bool *blocked,
                               mmd_error *err)
{
    int fds[2];
    if (pipe(fds) != 0)
        return mmd_fail(err, MMD_E_IO, "no pipe for glslang's process: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return mmd_fail(err, MMD_E_IO, "no process for glslang: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], job);
    }
    close(fds[1]);
    mmd_status st = MMD_E_UNSUPPORTED;
    *blocked = !mmd_child_wait_running(fds[0], pid);
    bool got = !*blocked && receive(fds[0], job->max_words, words, count, err, &st);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (got && st == MMD_OK) {
            free(*words);
            *words = NULL;
        }
        return child_died(job, status, err);
    }
    return st;
}

mmd_status mmd_fx_compile_isolated(const mmd_fx_compile_job *job, uint32_t **words, size_t *count, mmd_error *err)
{
    mmd_fx_hlsl_warm();
    bool blocked = false;
    for (int i = 0; i < TRIES; i++) {
        mmd_status st = compile_once(job, words, count, &blocked, err);
        if (!blocked)
            return st;
    }
    return mmd_fail(err, MMD_E_LIMIT,
                    "glslang's process sat blocked (no CPU time for %d s, %d tries): a lock another thread held "
                    "when it was forked%s",
                    MMD_CHILD_BLOCKED_SECONDS, TRIES,
#ifdef MMD_ASAN
                    " (AddressSanitizer's allocator has no fork handlers)"
#else
                    ""
#endif
    );
}
#endif
