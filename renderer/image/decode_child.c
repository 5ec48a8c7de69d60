/* renderer/image/decode_child.c - stb_image decodes in child processes under a
 * wall-clock budget (see decode_child.h).
 *
 * Hand-written because no library runs a decoder out of process with a time
 * limit. One shared anonymous mapping holds a queue counter, a slot per job
 * (state, start time, result) and every job's pixels. Each worker child takes
 * the next job from the counter, decodes it into its pixels and marks it done;
 * the parent sleeps in poll() on a pipe whose write ends only the workers hold
 * (end of file: every worker has exited), waking at least every 100 ms to kill
 * a worker whose current job is past the budget, or a worker blocked for good
 * (no CPU time for MMD_CHILD_BLOCKED_SECONDS: a lock another thread held at
 * fork, base/child.h; without this, one that blocked before taking a job was
 * waited for forever): its job goes back to the queue for the next round. */
#include "renderer/image/decode_child.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <stb_image.h>

#include "core/status.h"
#include "renderer/base/child.h"

#define MAX_WORKERS 16
#define WAKE_MS 100 /* the longest the parent sleeps before it looks at the budgets again */

enum { SLOT_WAITING, SLOT_DECODING, SLOT_DONE };

typedef struct slot {
    atomic_int state;
    int worker;         /* which worker took it (index into the parent's pids) */
    int64_t started_ns; /* CLOCK_MONOTONIC: the same clock in every process */
    size_t px_off;      /* its pixels, from the mapping's start */
    mmd_decode_result res;
} slot;

typedef struct shared {
    atomic_size_t next; /* the next queue position to take */
    slot slots[];
} shared;

void mmd_decode_here(mmd_decode_job *job)
{
    mmd_decode_result *r = &job->res;
    int w2 = 0, h2 = 0, comp = 0;
    uint8_t *got = stbi_load_from_memory(job->data, (int)job->size, &w2, &h2, &comp, 4);
    r->w = w2;
    r->h = h2;
    if (!got) {
        const char *why = stbi_failure_reason();
        r->status = MMD_E_BAD_STRUCTURE;
        snprintf(r->why, sizeof r->why, "cannot decode image: %s", why ? why : "corrupt data");
        return;
    }
    if (w2 != job->w || h2 != job->h) { /* stb disagreeing with itself: treat as corrupt */
        r->status = MMD_E_BAD_STRUCTURE;
        snprintf(r->why, sizeof r->why, "image size changed while decoding");
    } else {
        memcpy(job->px, got, (size_t)job->w * (size_t)job->h * 4);
        r->status = MMD_OK;
    }
    stbi_image_free(got);
}

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Job i decoded into its slot's pixels, in this process. */
static void decode_into_slot(shared *sh, mmd_decode_job *jobs, size_t i)
{
    slot *s = &sh->slots[i];
    mmd_decode_job j = jobs[i];
    j.px = (uint8_t *)sh + s->px_off;
    mmd_decode_here(&j);
    s->res = j.res;
    atomic_store(&s->state, SLOT_DONE);
}

/* A worker child: decode queued jobs (the queue is `order`, job indices) until
 * none is left. Touches only stb, malloc and the mapping, then _exit()s. */
static void work(shared *sh, mmd_decode_job *jobs, const size_t *order, size_t n, int k)
{
    for (;;) {
        size_t q = atomic_fetch_add(&sh->next, 1);
        if (q >= n)
            _exit(0);
        slot *s = &sh->slots[order[q]];
        s->worker = k;
        s->started_ns = now_ns();
        atomic_store(&s->state, SLOT_DECODING);
        decode_into_slot(sh, jobs, order[q]);
    }
}

/* Kill the workers whose current job is past the budget; true for the jobs
 * whose worker was killed. The milliseconds until the next deadline (at most
 * WAKE_MS or the budget) into *wait_ms. */
static void enforce_budget(shared *sh, const size_t *order, size_t n, const pid_t *pids, int limit_ms,
                           bool *killed, int *wait_ms)
{
    int64_t now = now_ns(), limit = (int64_t)limit_ms * 1000000;
    *wait_ms = limit_ms < WAKE_MS ? limit_ms : WAKE_MS; /* a job may start any moment */
    for (size_t q = 0; q < n; q++) {
        slot *s = &sh->slots[order[q]];
        if (atomic_load(&s->state) != SLOT_DECODING || killed[order[q]] || pids[s->worker] <= 0)
            continue;
        int64_t left = s->started_ns + limit - now;
        if (left <= 0) {
            kill(pids[s->worker], SIGKILL);
            killed[order[q]] = true;
        } else if (left / 1000000 + 1 < *wait_ms) {
            *wait_ms = (int)(left / 1000000) + 1;
        }
    }
}

/* Start up to `workers` children on the queue; their count (0: none could be
 * made). The parent keeps the pipe's read end in *rfd. */
static int spawn(shared *sh, mmd_decode_job *jobs, const size_t *order, size_t n, int workers, pid_t *pids, int *rfd)
{
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    int made = 0;
    pid_t parent = getpid();
    for (int k = 0; k < workers; k++) {
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            /* the budget holds even if the parent dies (a signal before its
             * handlers are up): the kernel ends the worker with it */
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(0);
            work(sh, jobs, order, n, k);
        }
        if (pid < 0)
            break;
        pids[made++] = pid;
    }
    close(fds[1]);
    *rfd = fds[0];
    return made;
}

/* Kill the workers blocked for good (no CPU time: a lock held at fork,
 * base/child.h); the job one was on goes back to the queue, for the next
 * round. */
static void kill_blocked(shared *sh, const size_t *order, size_t n, mmd_child_watch *watch, bool *gone, int count)
{
    for (int k = 0; k < count; k++) {
        if (gone[k] || !mmd_child_blocked(&watch[k]))
            continue;
        kill(watch[k].pid, SIGKILL);
        gone[k] = true;
        for (size_t q = 0; q < n; q++) {
            slot *s = &sh->slots[order[q]];
            if (s->worker == k && atomic_load(&s->state) == SLOT_DECODING)
                atomic_store(&s->state, SLOT_WAITING);
        }
    }
}

/* Wait for every worker to exit, killing those past the budget or blocked. */
static void wait_workers(shared *sh, const size_t *order, size_t n, pid_t *pids, int count, int rfd, int limit_ms,
                         bool *killed)
{
    mmd_child_watch watch[MAX_WORKERS];
    bool gone[MAX_WORKERS] = {false};
    for (int k = 0; k < count; k++)
        mmd_child_watch_start(&watch[k], pids[k]);
    for (;;) {
        int wait_ms;
        kill_blocked(sh, order, n, watch, gone, count);
        enforce_budget(sh, order, n, pids, limit_ms, killed, &wait_ms);
        struct pollfd p = {.fd = rfd, .events = POLLIN};
        int rc = poll(&p, 1, wait_ms);
        if (rc < 0 && errno != EINTR)
            break;
        char c;
        if (rc > 0 && read(rfd, &c, 1) <= 0)
            break; /* end of file: every worker is gone */
    }
    for (int k = 0; k < count; k++) {
        while (waitpid(pids[k], NULL, 0) < 0 && errno == EINTR) {
        }
        pids[k] = 0;
    }
}

/* One round over the queue `order`; the jobs no worker reached are left
 * SLOT_WAITING. False when no child could be made. */
static bool round_in_children(shared *sh, mmd_decode_job *jobs, const size_t *order, size_t n, int workers,
                              int limit_ms, bool *killed)
{
    pid_t pids[MAX_WORKERS];
    int rfd = -1;
    atomic_store(&sh->next, 0);
    int count = spawn(sh, jobs, order, n, workers, pids, &rfd);
    if (count == 0) {
        if (rfd >= 0)
            close(rfd);
        return false;
    }
    wait_workers(sh, order, n, pids, count, rfd, limit_ms, killed);
    close(rfd);
    return true;
}

/* The outcome of job i after its rounds, into jobs[i]. */
static void collect(shared *sh, mmd_decode_job *jobs, size_t i, const bool *killed, int limit_ms)
{
    slot *s = &sh->slots[i];
    mmd_decode_result *r = &jobs[i].res;
    if (atomic_load(&s->state) == SLOT_DONE) {
        *r = s->res;
        if (r->status == MMD_OK)
            memcpy(jobs[i].px, (uint8_t *)sh + s->px_off, (size_t)jobs[i].w * (size_t)jobs[i].h * 4);
    } else if (killed[i]) {
        r->status = MMD_E_LIMIT;
        snprintf(r->why, sizeof r->why, "decoding took longer than the %d ms budget (stopped)", limit_ms);
    } else {
        r->status = MMD_E_BAD_STRUCTURE;
        snprintf(r->why, sizeof r->why, "the decoder crashed");
    }
}

void mmd_decode_children(mmd_decode_job *jobs, size_t n, int workers, int limit_ms)
{
    if (n == 0)
        return;
    size_t bytes = sizeof(shared) + n * sizeof(slot);
    bytes = (bytes + 63) & ~(size_t)63;
    size_t head = bytes;
    for (size_t i = 0; i < n; i++)
        bytes += ((size_t)jobs[i].w * (size_t)jobs[i].h * 4 + 63) & ~(size_t)63;
    shared *sh = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    size_t *order = malloc(n * sizeof *order);
    bool *killed = calloc(n, sizeof *killed);
    if (sh == MAP_FAILED || !order || !killed) {
        for (size_t i = 0; i < n; i++) {
            jobs[i].res.status = MMD_E_NOMEM;
            snprintf(jobs[i].res.why, sizeof jobs[i].res.why, "cannot map %zu bytes for decoding", bytes);
        }
        goto out;
    }
    for (size_t i = 0, off = head; i < n; i++) {
        atomic_init(&sh->slots[i].state, SLOT_WAITING);
        sh->slots[i].px_off = off;
        off += ((size_t)jobs[i].w * (size_t)jobs[i].h * 4 + 63) & ~(size_t)63;
    }
    workers = workers < 1 ? 1 : workers > MAX_WORKERS ? MAX_WORKERS : workers;
    /* A worker that dies leaves the job it was on settled (crashed or past the
     * budget) and the jobs it never took waiting: another round takes those.
     * A round that settles nothing (its workers died before taking a job, or
     * none could be made) ends the rounds: the rest is decoded here. */
    for (size_t before = n + 1;;) {
        size_t left = 0;
        for (size_t i = 0; i < n; i++)
            if (atomic_load(&sh->slots[i].state) == SLOT_WAITING)
                order[left++] = i;
        if (left == 0)
            break;
        if (left == before ||
            !round_in_children(sh, jobs, order, left, (size_t)workers < left ? workers : (int)left, limit_ms,
                               killed)) {
            for (size_t q = 0; q < left; q++) /* no process to spare: decode here */
                decode_into_slot(sh, jobs, order[q]);
            break;
        }
        before = left;
    }
    for (size_t i = 0; i < n; i++)
        collect(sh, jobs, i, killed, limit_ms);
out:
    if (sh != MAP_FAILED)
        munmap(sh, bytes);
    free(order);
    free(killed);
}
