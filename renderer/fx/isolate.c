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
 * The pipe message: u8 ok, u32 log length, log, u32 word count, words.
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

#include "renderer/fx/translate_internal.h"

#ifdef MMD_FX_COMPILE_IN_PROCESS
mmd_status mmd_fx_compile_isolated(const mmd_fx_compile_job *job, uint32_t **words, size_t *count, mmd_error *err)
{
    return mmd_fx_hlsl_to_spirv(job->hlsl, job->len, job->name, job->entry, job->stage, words, count, err);
}
#else
#define MAX_WORDS (16u << 20) /* SPIR-V words a child may send back (64 MiB) */

#if defined(__SANITIZE_ADDRESS__)
#define MMD_FX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MMD_FX_ASAN 1
#endif
#endif

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

#ifndef MMD_FX_ASAN
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
    alarm(MMD_FX_COMPILE_SECONDS);
#ifndef MMD_FX_ASAN /* ASan reserves terabytes of shadow: no address-space cap under it */
    unsigned long long now = mapped_bytes();
    if (now) {
        struct rlimit rl = {(rlim_t)(now + MMD_FX_COMPILE_MEMORY), (rlim_t)(now + MMD_FX_COMPILE_MEMORY)};
        setrlimit(RLIMIT_AS, &rl);
    }
#endif
    uint32_t *words = NULL;
    size_t count = 0;
    mmd_error e = {0};
    bool ok = mmd_fx_hlsl_to_spirv(job->hlsl, job->len, job->name, job->entry, job->stage, &words, &count, &e) == MMD_OK;
    uint8_t flag = ok;
    uint32_t loglen = ok ? 0 : (uint32_t)strnlen(e.msg, sizeof e.msg - 1), n = ok && count <= MAX_WORDS ? (uint32_t)count : 0;
    bool sent = write_all(fd, &flag, 1) && write_all(fd, &loglen, 4) && write_all(fd, e.msg, loglen) &&
                write_all(fd, &n, 4) && write_all(fd, words, (size_t)n * 4);
    _exit(sent ? 0 : 1);
}

/* Reads the child's message; false when it is short. *ok false: why in err. */
static bool receive(int fd, uint32_t **words, size_t *count, mmd_error *err, bool *ok)
{
    uint8_t flag = 0;
    uint32_t loglen = 0, n = 0;
    char buf[512];
    if (!read_all(fd, &flag, 1) || !read_all(fd, &loglen, 4) || loglen >= sizeof buf || !read_all(fd, buf, loglen) ||
        !read_all(fd, &n, 4) || n > MAX_WORDS)
        return false;
    buf[loglen] = '\0';
    *ok = flag && n;
    if (!*ok) {
        mmd_fail(err, MMD_E_UNSUPPORTED, "%s", flag ? "glslang made no SPIR-V" : buf);
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

static mmd_status child_died(int status, mmd_error *err)
{
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        return mmd_fail(err, MMD_E_LIMIT, "glslang took more than %d s", MMD_FX_COMPILE_SECONDS);
    if (WIFSIGNALED(status))
        return mmd_fail(err, MMD_E_UNSUPPORTED, "glslang crashed on this HLSL (signal %d)", WTERMSIG(status));
    return mmd_fail(err, MMD_E_LIMIT, "glslang failed (out of memory past %u MiB?)", MMD_FX_COMPILE_MEMORY >> 20);
}

mmd_status mmd_fx_compile_isolated(const mmd_fx_compile_job *job, uint32_t **words, size_t *count, mmd_error *err)
{
    mmd_fx_hlsl_warm();
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
    bool ok = false;
    bool got = receive(fds[0], words, count, err, &ok);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (got && ok) {
            free(*words);
            *words = NULL;
        }
        return child_died(status, err);
    }
    return ok ? MMD_OK : MMD_E_UNSUPPORTED;
}
#endif
