/* renderer/image/texpath.c - texture path resolution (see texpath.h). */
#include "renderer/image/texpath.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/text.h"

static int fold(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* ASCII letters case-insensitive, all other bytes exact (UTF-8 continuation
 * bytes are never ASCII, so this is safe byte by byte). */
static bool eq_ascii_ci(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (fold((unsigned char)*a) != fold((unsigned char)*b))
            return false;
    return *a == *b;
}

static bool sjis_lead(unsigned c) { return (c >= 0x81 && c <= 0x9f) || (c >= 0xe0 && c <= 0xfc); }

/* Shift-JIS aware: double-byte characters compare exactly (their trail byte
 * may be an ASCII letter), single bytes fold ASCII case. */
static bool eq_sjis_ci(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    while (*x && *y) {
        if (sjis_lead(*x)) {
            if (*x != *y || !x[1] || x[1] != y[1])
                return false;
            x += 2;
            y += 2;
            continue;
        }
        if (fold(*x) != fold(*y))
            return false;
        x++;
        y++;
    }
    return *x == *y;
}

static bool has_high_bytes(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return true;
    return false;
}

/* UTF-8 component to CP932 bytes (core/text.h); false when it has no CP932 form. */
static bool to_cp932(const char *utf8, char *out, size_t cap)
{
    mmd_text *t = mmd_text_create();
    bool ok = t && mmd_text_to_sjis_exact(t, utf8, out, cap);
    mmd_text_destroy(t);
    return ok;
}

static bool exists(const char *path, struct stat *st)
{
    return stat(path, st) == 0;
}

/* Join dir + "/" + name into buf; false when it does not fit. */
static bool join(char *buf, size_t cap, const char *dir, const char *name)
{
    int k = snprintf(buf, cap, "%s%s%s", dir, (*dir && dir[strlen(dir) - 1] != '/') ? "/" : "", name);
    return k >= 0 && (size_t)k < cap;
}

/* Find the on-disk entry of dir matching comp; writes its name to found. */
static bool match_in_dir(const char *dir, const char *comp, char *found, size_t cap)
{
    char path[PATH_MAX];
    struct stat st;
    if (join(path, sizeof path, dir, comp) && exists(path, &st)) {
        snprintf(found, cap, "%s", comp);
        return true;
    }
    char sjis[NAME_MAX + 1];
    bool try_sjis = has_high_bytes(comp) && to_cp932(comp, sjis, sizeof sjis);
    if (try_sjis && join(path, sizeof path, dir, sjis) && exists(path, &st)) {
        snprintf(found, cap, "%s", sjis);
        return true;
    }
    DIR *d = opendir(*dir ? dir : ".");
    if (!d)
        return false;
    bool ok = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *nm = e->d_name;
        if (!strcmp(nm, ".") || !strcmp(nm, ".."))
            continue;
        if (eq_ascii_ci(nm, comp) || (try_sjis && eq_sjis_ci(nm, sjis))) {
            if (!ok || strcmp(nm, found) < 0) {
                snprintf(found, cap, "%s", nm);
                ok = true;
            }
        }
    }
    closedir(d);
    return ok;
}

/* Is path (resolved) inside base (resolved)? */
static bool inside(const char *base_real, const char *path_real)
{
    size_t n = strlen(base_real);
    if (strncmp(base_real, path_real, n) != 0)
        return false;
    if (n == 1 && base_real[0] == '/')
        return true;
    return path_real[n] == '/' || path_real[n] == 0;
}

int mmd_texpath_model_dir(const char *model_path, char *dir, size_t dir_size)
{
    const char *slash = strrchr(model_path, '/');
    const char *d = ".";
    size_t n = 1;
    if (slash == model_path) {
        d = "/";
    } else if (slash) {
        d = model_path;
        n = (size_t)(slash - model_path);
    }
    if (n >= dir_size)
        return -1;
    memcpy(dir, d, n);
    dir[n] = 0;
    return 0;
}

/* Where a resolution may go: the model rule (root NULL: model_dir itself,
 * ".." refused) or an effect's (root: its realpath'd confinement folder,
 * ".." followed while each step stays under it). */
typedef struct confine {
    const char *root;
} confine;

/* Effect rule: the folder walked so far (after symlinks) must stay in root. */
static mmd_status step_inside(const confine *c, const char *stored, const char *cur, mmd_error *err)
{
    char real[PATH_MAX];
    if (!c->root)
        return MMD_OK;
    if (!realpath(cur, real))
        return mmd_fail(err, MMD_E_IO, "texture '%s' not found: cannot resolve '%s': %s", stored, cur,
                        strerror(errno));
    if (!inside(c->root, real))
        return mmd_fail(err, MMD_E_UNSUPPORTED, "texture '%s' is outside %s (--allow-outside-assets)", stored,
                        c->root);
    return MMD_OK;
}

/* The components of stored walked from the folder in cur to an existing
 * regular file, its path left in cur (PATH_MAX). */
static mmd_status walk(const char *stored, char **comps, int nc, const confine *c, char *cur,
                       mmd_error *err)
{
    for (int i = 0; i < nc; i++) {
        char found[NAME_MAX + 1];
        const char *comp = comps[i];
        if (!strcmp(comp, "..")) {
            snprintf(found, sizeof found, "..");
        } else if (!match_in_dir(cur, comp, found, sizeof found)) {
            return mmd_fail(err, MMD_E_IO,
                            "texture '%s' not found: no '%s' in '%s' (also tried other letter case "
                            "and Shift-JIS names)",
                            stored, comp, cur);
        }
        char next[PATH_MAX];
        if (!join(next, sizeof next, cur, found))
            return mmd_fail(err, MMD_E_BAD_VALUE, "texture path '%s' is too long", stored);
        memcpy(cur, next, PATH_MAX);
        mmd_status st = step_inside(c, stored, cur, err);
        if (st != MMD_OK)
            return st;
    }
    struct stat st;
    if (stat(cur, &st) != 0 || !S_ISREG(st.st_mode))
        return mmd_fail(err, MMD_E_IO, "texture '%s': '%s' is not a regular file", stored, cur);
    return MMD_OK;
}

static mmd_status resolve(const char *model_dir, const confine *c, const char *stored, bool allow_outside,
                          char *out, size_t out_size, mmd_error *err)
{
    if (!model_dir || !stored || !out || out_size == 0)
        return mmd_fail(err, MMD_E_BAD_VALUE, "texture path: bad arguments");
    size_t len = strlen(stored);
    if (len == 0)
        return mmd_fail(err, MMD_E_BAD_VALUE, "texture path is empty");
    if (len >= PATH_MAX)
        return mmd_fail(err, MMD_E_BAD_VALUE, "texture path is %zu bytes, too long", len);

    char norm[PATH_MAX];
    for (size_t i = 0; i <= len; i++)
        norm[i] = stored[i] == '\\' ? '/' : stored[i];

    bool drive = ((norm[0] | 32) >= 'a' && (norm[0] | 32) <= 'z' && norm[1] == ':');
    bool absolute = norm[0] == '/' || drive;
    if (absolute && !allow_outside && c->root)
        return mmd_fail(err, MMD_E_UNSUPPORTED,
                        "texture '%s' is an absolute path, outside %s (--allow-outside-assets)", stored, c->root);
    if (absolute && !allow_outside)
        return mmd_fail(err, MMD_E_UNSUPPORTED,
                        "texture '%s' is an absolute path, outside the model folder: refused", stored);
    if (drive)
        return mmd_fail(err, MMD_E_IO,
                        "texture '%s' is a Windows drive path: not found", stored);

    /* Split into components (skipping "" and "."), checking "..". */
    char *comps[PATH_MAX / 2];
    int nc = 0;
    char *save = NULL;
    for (char *tok = strtok_r(norm, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
        if (!strcmp(tok, "."))
            continue;
        if (!strcmp(tok, "..") && !allow_outside && !c->root)
            return mmd_fail(err, MMD_E_UNSUPPORTED,
                            "texture '%s' climbs out of the model folder with '..': refused", stored);
        comps[nc++] = tok;
    }
    if (nc == 0)
        return mmd_fail(err, MMD_E_BAD_VALUE, "texture path '%s' names no file", stored);

    char cur[PATH_MAX];
    if (absolute)
        snprintf(cur, sizeof cur, "/");
    else if (snprintf(cur, sizeof cur, "%s", *model_dir ? model_dir : ".") >= (int)sizeof cur)
        return mmd_fail(err, MMD_E_BAD_VALUE, "model folder path is too long");
    mmd_status ws = walk(stored, comps, nc, allow_outside ? &(confine){0} : c, cur, err);
    if (ws != MMD_OK)
        return ws;

    if (!allow_outside && !c->root) {
        char base_real[PATH_MAX], file_real[PATH_MAX];
        if (!realpath(*model_dir ? model_dir : ".", base_real) || !realpath(cur, file_real))
            return mmd_fail(err, MMD_E_IO, "texture '%s': cannot resolve '%s': %s",
                            stored, cur, strerror(errno));
        if (!inside(base_real, file_real))
            return mmd_fail(err, MMD_E_UNSUPPORTED,
                            "texture '%s' resolves to '%s', outside the model folder: refused", stored,
                            file_real);
    }

    size_t n = strlen(cur);
    if (n >= out_size)
        return mmd_fail(err, MMD_E_BAD_VALUE, "resolved path needs %zu bytes, buffer has %zu",
                        n + 1, out_size);
    memcpy(out, cur, n + 1);
    return MMD_OK;
}

mmd_status mmd_texpath_resolve(const char *model_dir, const char *stored, bool allow_outside, char *out,
                               size_t out_size, mmd_error *err)
{
    return resolve(model_dir, &(confine){0}, stored, allow_outside, out, out_size, err);
}

mmd_status mmd_texpath_resolve_in(const char *dir, const char *root, const char *stored, bool allow_outside,
                                  char *out, size_t out_size, mmd_error *err)
{
    if (!root || !*root)
        return mmd_fail(err, MMD_E_BAD_VALUE, "texture path: no root folder");
    char real[PATH_MAX];
    if (!realpath(root, real))
        return mmd_fail(err, MMD_E_IO, "cannot resolve the folder '%s': %s", root, strerror(errno));
    confine c = {.root = real};
    return resolve(dir, &c, stored, allow_outside, out, out_size, err);
}

/* The parent of an absolute, realpath'd folder in place ("/" stays "/"). */
static void raise_one(char *dir)
{
    char *s = strrchr(dir, '/');
    if (s == dir)
        dir[1] = 0;
    else if (s)
        *s = 0;
}

bool mmd_texpath_fd_inside(int fd, const char *root)
{
    char link[64], real[PATH_MAX], root_real[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    return realpath(link, real) && realpath(root, root_real) && inside(root_real, real);
}

int mmd_texpath_effect_root(const char *effect_path, const char *namer_dir, char *root, size_t cap)
{
    char edir[PATH_MAX], file[PATH_MAX], d[PATH_MAX];
    if (!realpath(effect_path, file))
        return -1;
    snprintf(edir, sizeof edir, "%s", file);
    raise_one(edir);
    char floor[PATH_MAX];
    snprintf(floor, sizeof floor, "%s", edir);
    if (!namer_dir)
        snprintf(d, sizeof d, "%s", "/"); /* named by no file: only "/" is shared (kept below) */
    if (!namer_dir || realpath(*namer_dir ? namer_dir : ".", d)) {
        if (namer_dir && inside(d, edir)) {
            snprintf(floor, sizeof floor, "%s", d);
        } else { /* the common folder's child on the effect's side (or edir itself) */
            char common[PATH_MAX];
            snprintf(common, sizeof common, "%s", d);
            while (!inside(common, edir))
                raise_one(common);
            size_t n = strlen(common) == 1 ? 0 : strlen(common);
            const char *next = edir[n] == '/' ? strchr(edir + n + 1, '/') : NULL;
            size_t keep = next ? (size_t)(next - edir) : strlen(edir);
            snprintf(floor, sizeof floor, "%.*s", (int)keep, edir);
        }
    }
    char up[PATH_MAX];
    snprintf(up, sizeof up, "%s", edir);
    for (int i = 0; i < MMD_EFFECT_ROOT_LEVELS; i++)
        raise_one(up);
    const char *r = strlen(up) > strlen(floor) ? up : floor; /* the deeper: both are edir or above it */
    if (strlen(r) >= cap)
        return -1;
    memcpy(root, r, strlen(r) + 1);
    return 0;
}
