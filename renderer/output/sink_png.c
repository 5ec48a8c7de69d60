/* renderer/output/sink_png.c - PNG sequence sink with a bounded encode queue (see sink_png.h). */
#include "renderer/output/sink_png.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "renderer/image/png.h"

#define MAX_THREADS 16

/* A target split around its frame number: prefix, width, zero pad, suffix. */
typedef struct pattern {
    char prefix[PATH_MAX];
    char suffix[256];
    int width;
    bool zero;
    char dir[PATH_MAX]; /* directory to create ("" when none) */
} pattern;

static bool ends_with_png(const char *s)
{
    size_t n = strlen(s);
    return n >= 4 && s[n - 4] == '.' && (s[n - 3] | 32) == 'p' && (s[n - 2] | 32) == 'n' &&
           (s[n - 1] | 32) == 'g';
}

/* Copy src[0..n) into dst, turning "%%" into "%"; false on a lone '%'. */
static bool unescape(char *dst, size_t cap, const char *src, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (src[i] == '%') {
            if (i + 1 >= n || src[i + 1] != '%')
                return false;
            i++;
        }
        if (o + 1 >= cap)
            return false;
        dst[o++] = src[i];
    }
    dst[o] = 0;
    return true;
}

static mmd_status parse_target(const char *target, pattern *p, mmd_error *err)
{
    memset(p, 0, sizeof *p);
    size_t len = target ? strlen(target) : 0;
    if (len == 0)
        return mmd_fail(err, MMD_E_USAGE, "PNG output: empty target");
    if (len >= PATH_MAX - 32)
        return mmd_fail(err, MMD_E_USAGE, "PNG output: target path is too long");
    const char *conv = NULL;
    for (const char *c = target; *c; c++) {
        if (*c != '%')
            continue;
        if (c[1] == '%') {
            c++;
            continue;
        }
        if (conv)
            return mmd_fail(err, MMD_E_USAGE, "PNG output '%s': more than one %% conversion", target);
        conv = c;
    }
    if (!conv) {
        if (ends_with_png(target))
            return mmd_fail(err, MMD_E_USAGE,
                            "PNG output '%s': a file name needs a frame number pattern such as "
                            "f_%%06d.png (or give a directory)",
                            target);
        if (!unescape(p->dir, sizeof p->dir, target, len))
            return mmd_fail(err, MMD_E_USAGE, "PNG output '%s': bad %% in the directory name", target);
        size_t dl = strlen(p->dir);
        while (dl > 1 && p->dir[dl - 1] == '/')
            p->dir[--dl] = 0;
        int k = snprintf(p->prefix, sizeof p->prefix, "%s%sframe_", p->dir,
                         p->dir[dl - 1] == '/' ? "" : "/");
        if (k < 0 || (size_t)k >= sizeof p->prefix)
            return mmd_fail(err, MMD_E_USAGE, "PNG output: target path is too long");
        snprintf(p->suffix, sizeof p->suffix, ".png");
        p->width = 6;
        p->zero = true;
        return MMD_OK;
    }
    const char *q = conv + 1;
    if (*q == '0') {
        p->zero = true;
        q++;
    }
    int w = 0;
    while (*q >= '0' && *q <= '9' && w < 100)
        w = w * 10 + (*q++ - '0');
    if (*q != 'd' || w > 18)
        return mmd_fail(err, MMD_E_USAGE,
                        "PNG output '%s': the frame number must be written %%d or %%0Nd (N <= 18)",
                        target);
    p->width = w;
    const char *after = q + 1;
    if (strchr(after, '/'))
        return mmd_fail(err, MMD_E_USAGE, "PNG output '%s': the frame number must be in the file name",
                        target);
    if (!unescape(p->prefix, sizeof p->prefix, target, (size_t)(conv - target)) ||
        !unescape(p->suffix, sizeof p->suffix, after, strlen(after)))
        return mmd_fail(err, MMD_E_USAGE, "PNG output '%s': bad %% (write %%%% for a literal %%)", target);
    const char *slash = strrchr(p->prefix, '/');
    if (slash)
        snprintf(p->dir, sizeof p->dir, "%.*s", (int)(slash - p->prefix), p->prefix);
    if (p->dir[0] == 0 && slash)
        snprintf(p->dir, sizeof p->dir, "/");
    return MMD_OK;
}

static int format_path(const pattern *p, int64_t frame, char *out, size_t cap)
{
    int k = p->zero ? snprintf(out, cap, "%s%0*lld%s", p->prefix, p->width, (long long)frame, p->suffix)
                    : snprintf(out, cap, "%s%*lld%s", p->prefix, p->width, (long long)frame, p->suffix);
    return k > 0 && (size_t)k < cap ? 0 : -1;
}

mmd_status mmd_sink_png_path(const char *target, int64_t frame_index, char *out, size_t out_size,
                             mmd_error *err)
{
    pattern p;
    mmd_status st = parse_target(target, &p, err);
    if (st != MMD_OK)
        return st;
    if (format_path(&p, frame_index, out, out_size) != 0)
        return mmd_fail(err, MMD_E_OUTPUT, "PNG output '%s': file name too long", target);
    return MMD_OK;
}

bool mmd_sink_png_writes(const char *target, const char *path, int64_t *frame)
{
    pattern p;
    if (!path || parse_target(target, &p, NULL) != MMD_OK)
        return false;
    const char *pname = strrchr(p.prefix, '/'), *name = strrchr(path, '/');
    pname = pname ? pname + 1 : p.prefix;
    name = name ? name + 1 : path;
    size_t lp = strlen(pname), ls = strlen(p.suffix), ln = strlen(name);
    if (ln <= lp + ls || strncmp(name, pname, lp) || strcmp(name + ln - ls, p.suffix))
        return false;
    int64_t f = 0;
    size_t i = lp;
    while (i < ln - ls && name[i] == ' ')
        i++;
    if (i == ln - ls)
        return false;
    for (; i < ln - ls; i++) {
        if (name[i] < '0' || name[i] > '9' || f > INT64_MAX / 10 - 10)
            return false;
        f = f * 10 + (name[i] - '0');
    }
    char want[PATH_MAX];
    if (format_path(&p, f, want, sizeof want) != 0)
        return false;
    const char *wname = strrchr(want, '/');
    if (strcmp(wname ? wname + 1 : want, name))
        return false; /* e.g. 7 digits where the pattern writes 6 */
    /* the same folder, by inode */
    char pdir[PATH_MAX];
    snprintf(pdir, sizeof pdir, "%.*s", (int)(name - path), path);
    struct stat a, b;
    if (stat(pdir[0] ? pdir : ".", &a) != 0 || stat(p.dir[0] ? p.dir : ".", &b) != 0 ||
        a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return false;
    *frame = f;
    return true;
}

bool mmd_sink_png_frame_exists(const char *target, int64_t frame_index, int width, int height)
{
    char path[PATH_MAX];
    mmd_error err;
    if (mmd_sink_png_path(target, frame_index, path, sizeof path, NULL) != MMD_OK ||
        !mmd_png_file_complete(path))
        return false;
    /* signature + IEND is not enough (a file cut and patched, or another size):
     * the frame counts only if it decodes completely at the expected size */
    uint8_t *px = NULL;
    int w = 0, h = 0;
    if (mmd_png_read_file(path, &px, &w, &h, &err) != MMD_OK)
        return false;
    free(px);
    return (width <= 0 || w == width) && (height <= 0 || h == height);
}

/* Two renders writing into one folder would interleave their frames
 * silently: each takes an advisory lock on "<dir>/.mmdrender.lock" over the
 * byte range [first, last] - its frame numbers as offsets (an open file
 * description lock, F_OFD_SETLK) - held until the sink is closed or the
 * process ends (the kernel releases it even on a crash). A second writer of
 * any of those frames is refused; farm chunks, whose ranges are disjoint,
 * share the folder. The file itself stays (removing it while another process
 * holds it would let two writers in). */
static mmd_status lock_folder(const char *dir, int64_t first, int64_t last, int *lock_fd, mmd_error *err)
{
    char path[PATH_MAX];
    int k = snprintf(path, sizeof path, "%s%s" MMD_PNG_LOCK_NAME, dir[0] ? dir : ".",
                     dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/");
    if (k < 0 || (size_t)k >= sizeof path)
        return mmd_fail(err, MMD_E_OUTPUT, "PNG output: folder name too long");
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return mmd_fail(err, MMD_E_OUTPUT, "PNG output: cannot create the lock file '%s': %s", path, strerror(errno));
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (first >= 0 && last >= first) {
        fl.l_start = (off_t)first;
        fl.l_len = (off_t)(last - first + 1);
    } /* else l_len 0: every frame */
    if (fcntl(fd, F_OFD_SETLK, &fl) != 0) {
        int e = errno;
        close(fd);
        return mmd_fail(
            err, MMD_E_OUTPUT,
            "PNG output: folder '%s' is being written by another mmdrender (frames %lld-%lld locked in %s%s%s)",
            dir[0] ? dir : ".", (long long)first, (long long)last, path, e == EAGAIN || e == EACCES ? "" : ": ",
            e == EAGAIN || e == EACCES ? "" : strerror(e));
    }
    *lock_fd = fd;
    return MMD_OK;
}

/* mkdir -p */
static mmd_status make_dirs(const char *dir, mmd_error *err)
{
    if (!dir[0])
        return MMD_OK;
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *c = buf + 1;; c++) {
        if (*c == '/' || *c == 0) {
            char keep = *c;
            *c = 0;
            struct stat st;
            if (stat(buf, &st) != 0) {
                if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                    return mmd_fail(err, MMD_E_OUTPUT, "PNG output: cannot create directory '%s': %s", buf,
                                    strerror(errno));
            } else if (!S_ISDIR(st.st_mode)) {
                return mmd_fail(err, MMD_E_OUTPUT, "PNG output: '%s' exists and is not a directory", buf);
            }
            *c = keep;
            if (!keep)
                break;
        }
    }
    return MMD_OK;
}

/* ---- the sink ---- */

typedef struct job {
    int64_t frame;
    int w, h;
    uint8_t *px;
    size_t cap;
} job;

typedef struct png_sink {
    mmd_sink base; /* first: the mmd_sink * we hand out points here */
    pattern pat;
    bool alpha;
    int level;
    pthread_mutex_t mu, cb_mu;
    pthread_cond_t cv_work, cv_space;
    job *jobs;
    int slots;
    int *queue, q_head, q_count; /* ring of slot indices, FIFO */
    int *free_list, free_count;
    bool closing, aborting;
    mmd_status err; /* the first failed write, sticky; its sentence in err_msg */
    char err_msg[512];
    pthread_t threads[MAX_THREADS];
    int nthreads;
    int lock_fd; /* the folder's lock file, flock'ed while the sink lives; -1 none */
} png_sink;

static void *worker(void *arg)
{
    png_sink *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (s->q_count == 0 && !s->closing && !s->aborting)
            pthread_cond_wait(&s->cv_work, &s->mu);
        if (s->aborting || s->q_count == 0)
            break;
        int slot = s->queue[s->q_head];
        s->q_head = (s->q_head + 1) % s->slots;
        s->q_count--;
        bool skip = s->err != MMD_OK;
        pthread_mutex_unlock(&s->mu);

        job *j = &s->jobs[slot];
        mmd_status r = MMD_OK;
        mmd_error e;
        if (!skip) {
            char path[PATH_MAX];
            if (format_path(&s->pat, j->frame, path, sizeof path) != 0)
                r = mmd_fail(&e, MMD_E_OUTPUT, "PNG output: file name for frame %lld too long",
                             (long long)j->frame);
            else
                r = mmd_png_write_file(path, j->px, j->w, j->h, (size_t)j->w * 4, s->alpha,
                                       s->level, &e);
            if (r == MMD_OK && s->base.on_done) {
                pthread_mutex_lock(&s->cb_mu);
                s->base.on_done(s->base.user, j->frame);
                pthread_mutex_unlock(&s->cb_mu);
            }
        }

        pthread_mutex_lock(&s->mu);
        if (r != MMD_OK && s->err == MMD_OK) {
            s->err = MMD_E_OUTPUT; /* any failure to write a frame is the output's (exit 5) */
            snprintf(s->err_msg, sizeof s->err_msg, "%s", e.msg);
        }
        s->free_list[s->free_count++] = slot;
        pthread_cond_signal(&s->cv_space);
        if (s->err != MMD_OK)
            pthread_cond_broadcast(&s->cv_space); /* wake a producer to see the error */
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static mmd_status png_write_frame(mmd_sink *base, const uint8_t *rgba, int w, int h, size_t stride,
                                  int64_t frame, mmd_error *err)
{
    png_sink *s = (png_sink *)base;
    if (!rgba || w <= 0 || h <= 0 || stride < (size_t)w * 4)
        return mmd_fail(err, MMD_E_OUTPUT, "PNG output: bad frame %dx%d stride %zu", w, h, stride);
    pthread_mutex_lock(&s->mu);
    while (s->free_count == 0 && s->err == MMD_OK)
        pthread_cond_wait(&s->cv_space, &s->mu);
    if (s->err != MMD_OK) {
        mmd_status e = mmd_fail(err, s->err, "%s", s->err_msg);
        pthread_mutex_unlock(&s->mu);
        return e;
    }
    int slot = s->free_list[--s->free_count];
    pthread_mutex_unlock(&s->mu);

    job *j = &s->jobs[slot];
    size_t need = (size_t)w * h * 4;
    if (j->cap < need) {
        uint8_t *p = realloc(j->px, need);
        if (!p) {
            pthread_mutex_lock(&s->mu);
            s->free_list[s->free_count++] = slot;
            pthread_mutex_unlock(&s->mu);
            return mmd_fail(err, MMD_E_OUTPUT, "PNG output: cannot allocate %zu bytes", need);
        }
        j->px = p;
        j->cap = need;
    }
    if (stride == (size_t)w * 4) {
        memcpy(j->px, rgba, need);
    } else {
        for (int y = 0; y < h; y++)
            memcpy(j->px + (size_t)y * w * 4, rgba + (size_t)y * stride, (size_t)w * 4);
    }
    j->w = w;
    j->h = h;
    j->frame = frame;

    pthread_mutex_lock(&s->mu);
    s->queue[(s->q_head + s->q_count) % s->slots] = slot;
    s->q_count++;
    pthread_cond_signal(&s->cv_work);
    pthread_mutex_unlock(&s->mu);
    return MMD_OK;
}

static void destroy(png_sink *s)
{
    if (s->lock_fd >= 0)
        close(s->lock_fd); /* releases the flock */
    for (int i = 0; i < s->slots; i++)
        free(s->jobs[i].px);
    free(s->jobs);
    free(s->queue);
    free(s->free_list);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->cb_mu);
    pthread_cond_destroy(&s->cv_work);
    pthread_cond_destroy(&s->cv_space);
    free(s);
}

static void stop_and_join(png_sink *s, bool abort_now)
{
    pthread_mutex_lock(&s->mu);
    if (abort_now)
        s->aborting = true;
    s->closing = true;
    pthread_cond_broadcast(&s->cv_work);
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i < s->nthreads; i++)
        pthread_join(s->threads[i], NULL);
    s->nthreads = 0;
}

static mmd_status png_close(mmd_sink *base, mmd_error *err)
{
    png_sink *s = (png_sink *)base;
    stop_and_join(s, false);
    mmd_status e = s->err;
    if (e != MMD_OK)
        mmd_fail(err, e, "%s", s->err_msg);
    destroy(s);
    return e;
}

static void png_abort(mmd_sink *base)
{
    png_sink *s = (png_sink *)base;
    stop_and_join(s, true);
    destroy(s);
}

static const mmd_sink_vtable png_vt = {png_write_frame, png_close, png_abort};

mmd_sink *mmd_sink_png_open(const char *target, int threads, bool alpha, mmd_error *err)
{
    return mmd_sink_png_open_range(target, threads, alpha, -1, -1, err);
}

/* The encoder threads for a --threads value (<= 0: one per online CPU), at most MAX_THREADS. */
static int worker_count(int threads)
{
    if (threads <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (int)c : 1;
    }
    return threads > MAX_THREADS ? MAX_THREADS : threads;
}

uint64_t mmd_sink_png_memory(int width, int height, int threads)
{
    return (uint64_t)width * (uint64_t)height * 4u * 2u * (uint64_t)worker_count(threads); /* the slots */
}

mmd_sink *mmd_sink_png_open_range(const char *target, int threads, bool alpha, int64_t first, int64_t last,
                                  mmd_error *err)
{
    png_sink *s = calloc(1, sizeof *s);
    if (!s) {
        mmd_fail(err, MMD_E_OUTPUT, "PNG output: out of memory");
        return NULL;
    }
    s->lock_fd = -1;
    if (parse_target(target, &s->pat, err) != MMD_OK || make_dirs(s->pat.dir, err) != MMD_OK ||
        lock_folder(s->pat.dir, first, last, &s->lock_fd, err) != MMD_OK) {
        free(s);
        return NULL;
    }
    threads = worker_count(threads);
    s->base.vt = &png_vt;
    s->alpha = alpha;
    s->level = MMD_PNG_LEVEL_DEFAULT;
    s->slots = 2 * threads;
    s->jobs = calloc((size_t)s->slots, sizeof *s->jobs);
    s->queue = calloc((size_t)s->slots, sizeof *s->queue);
    s->free_list = calloc((size_t)s->slots, sizeof *s->free_list);
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->cb_mu, NULL);
    pthread_cond_init(&s->cv_work, NULL);
    pthread_cond_init(&s->cv_space, NULL);
    if (!s->jobs || !s->queue || !s->free_list) {
        destroy(s);
        mmd_fail(err, MMD_E_OUTPUT, "PNG output: out of memory");
        return NULL;
    }
    for (int i = 0; i < s->slots; i++)
        s->free_list[s->free_count++] = s->slots - 1 - i;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&s->threads[i], NULL, worker, s) != 0) {
            stop_and_join(s, true);
            destroy(s);
            mmd_fail(err, MMD_E_OUTPUT, "PNG output: cannot start encoder threads");
            return NULL;
        }
        s->nthreads++;
    }
    return &s->base;
}
