/* tests/unit/test_texpath.c - texture path resolution: separators, letter case,
 * Shift-JIS byte names on disk, refusal of paths leaving the model folder; an
 * effect's root and reads confined to it. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "renderer/image/texpath.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char root[64];     /* /tmp/test_texpath_XXXXXX */
static char model[128];   /* root/model */

static void touch(const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    int fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd >= 0) {
        (void)!write(fd, "x", 1);
        close(fd);
    }
}

static void mkd(const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    mkdir(p, 0755);
}

/* A symbolic link root/rel to root/target. */
static void ln_root(const char *target, const char *rel)
{
    char t[PATH_MAX], l[PATH_MAX];
    snprintf(t, sizeof t, "%s/%s", root, target);
    snprintf(l, sizeof l, "%s/%s", root, rel);
    if (symlink(t, l) != 0)
        perror("symlink");
}

static int resolve(const char *stored, bool outside, char *out)
{
    mmd_error err;
    int r = mmd_texpath_resolve(model, stored, outside, out, PATH_MAX, &err);
    if (r != MMD_OK)
        printf("#   %s -> %d: %s\n", stored, r, err.msg);
    return r;
}

static const char *rel(const char *out) { return out + strlen(model) + 1; }

static void setup(void)
{
    snprintf(root, sizeof root, "/tmp/test_texpath_XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        exit(1);
    }
    snprintf(model, sizeof model, "%s/model", root);
    mkd("model");
    mkd("model/Tex");
    touch("model/Tex/Face.PNG");
    touch("model/body.bmp");
    touch("outside.png");
    touch("model/\x83\x41" "B.png");          /* "アB.png" in CP932 */
    mkd("model/\x95\x5c");                      /* "表" in CP932 (trail byte 0x5c = '\') */
    touch("model/\x95\x5c/\x8a\xe7.png");       /* 表/顔.png */
    touch("model/UTF\xe9\xa1\x94.png");         /* "UTF顔.png" in UTF-8 */
    touch("model/dup.PNG");
    touch("model/Dup.png");
    mkd("model/adir.png");
    ln_root("outside.png", "model/link.png");
    char l[PATH_MAX];
    snprintf(l, sizeof l, "%s/model/inlink.png", root);
    if (symlink("body.bmp", l) != 0)
        perror("symlink");
}

TEST(exact_and_separators)
{
    char out[PATH_MAX];
    CHECK_EQ_INT(resolve("body.bmp", false, out), MMD_OK);
    CHECK_STR(rel(out), "body.bmp");
    CHECK_EQ_INT(resolve("Tex\\Face.PNG", false, out), MMD_OK);
    CHECK_STR(rel(out), "Tex/Face.PNG");
    CHECK_EQ_INT(resolve("Tex/Face.PNG", false, out), MMD_OK);
    CHECK_EQ_INT(resolve(".\\Tex\\\\Face.PNG", false, out), MMD_OK);
    CHECK_STR(rel(out), "Tex/Face.PNG");
    CHECK_EQ_INT(resolve("inlink.png", false, out), MMD_OK); /* symlink inside: fine */
}

TEST(case_insensitive_per_component)
{
    char out[PATH_MAX];
    CHECK_EQ_INT(resolve("tex\\face.png", false, out), MMD_OK);
    CHECK_STR(rel(out), "Tex/Face.PNG");
    CHECK_EQ_INT(resolve("BODY.BMP", false, out), MMD_OK);
    CHECK_STR(rel(out), "body.bmp");
    CHECK_EQ_INT(resolve("utf\xe9\xa1\x94.PNG", false, out), MMD_OK); /* UTF-8 on disk */
    CHECK_STR(rel(out), "UTF\xe9\xa1\x94.png");
    CHECK_EQ_INT(resolve("DUP.png", false, out), MMD_OK); /* two matches: smallest */
    CHECK_STR(rel(out), "Dup.png");
}

TEST(shift_jis_names_on_disk)
{
    char out[PATH_MAX];
    CHECK_EQ_INT(resolve("\xe8\xa1\xa8\\\xe9\xa1\x94.png", false, out), MMD_OK); /* 表\顔.png */
    CHECK_STR(rel(out), "\x95\x5c/\x8a\xe7.png");
    CHECK_EQ_INT(resolve("\xe3\x82\xa2" "b.PNG", false, out), MMD_OK); /* アb.PNG */
    CHECK_STR(rel(out), "\x83\x41" "B.png");
    /* ヂ is 0x83 0x61: its trail byte 'a' must not fold to ア's 'A' */
    CHECK_EQ_INT(resolve("\xe3\x83\x82" "B.png", false, out), MMD_E_IO);
}

TEST(missing)
{
    char out[PATH_MAX];
    mmd_error err;
    int r = mmd_texpath_resolve(model, "tex\\nothere.png", false, out, sizeof out, &err);
    CHECK_EQ_INT(r, MMD_E_IO);
    CHECK(strstr(err.msg, "nothere.png") != NULL);
    CHECK_EQ_INT(resolve("adir.png", false, out), MMD_E_IO); /* a directory */
    CHECK_EQ_INT(resolve("nodir/x.png", false, out), MMD_E_IO);
    CHECK_EQ_INT(resolve("body.bmp/x", false, out), MMD_E_IO);
}

TEST(refused_outside)
{
    char out[PATH_MAX];
    mmd_error err;
    CHECK_EQ_INT(mmd_texpath_resolve(model, "..\\outside.png", false, out, sizeof out, &err),
                 MMD_E_UNSUPPORTED);
    CHECK(strstr(err.msg, "refused") != NULL);
    CHECK_EQ_INT(mmd_texpath_resolve(model, "Tex/../../outside.png", false, out, sizeof out, &err),
                 MMD_E_UNSUPPORTED);
    CHECK_EQ_INT(mmd_texpath_resolve(model, "/etc/passwd", false, out, sizeof out, &err),
                 MMD_E_UNSUPPORTED);
    CHECK_EQ_INT(mmd_texpath_resolve(model, "C:\\tex\\a.png", false, out, sizeof out, &err),
                 MMD_E_UNSUPPORTED);
    CHECK_EQ_INT(mmd_texpath_resolve(model, "\\\\server\\a.png", false, out, sizeof out, &err),
                 MMD_E_UNSUPPORTED);
    CHECK_EQ_INT(mmd_texpath_resolve(model, "link.png", false, out, sizeof out, &err),
                 MMD_E_UNSUPPORTED); /* symlink to a file outside */
    CHECK(strstr(err.msg, "outside.png") != NULL);
}

TEST(allow_outside)
{
    char out[PATH_MAX];
    CHECK_EQ_INT(resolve("..\\OUTSIDE.png", true, out), MMD_OK);
    CHECK_EQ_INT(resolve("link.png", true, out), MMD_OK);
    char abs[PATH_MAX];
    snprintf(abs, sizeof abs, "%s/outside.png", root);
    CHECK_EQ_INT(resolve(abs, true, out), MMD_OK);
    CHECK_STR(out, abs);
    mmd_error err;
    CHECK_EQ_INT(mmd_texpath_resolve(model, "C:\\a.png", true, out, sizeof out, &err),
                 MMD_E_IO);
}

TEST(errors)
{
    char out[PATH_MAX];
    mmd_error err;
    CHECK_EQ_INT(mmd_texpath_resolve(model, "", false, out, sizeof out, &err), MMD_E_BAD_VALUE);
    CHECK_EQ_INT(mmd_texpath_resolve(model, ".\\", false, out, sizeof out, &err), MMD_E_BAD_VALUE);
    CHECK_EQ_INT(mmd_texpath_resolve(model, "body.bmp", false, out, 8, &err), MMD_E_BAD_VALUE);
    CHECK_EQ_INT(mmd_texpath_resolve(NULL, "body.bmp", false, out, sizeof out, &err),
                 MMD_E_BAD_VALUE);
    char *big = malloc(PATH_MAX + 10);
    memset(big, 'a', PATH_MAX + 9);
    big[PATH_MAX + 9] = 0;
    CHECK_EQ_INT(mmd_texpath_resolve(model, big, false, out, sizeof out, &err), MMD_E_BAD_VALUE);
    free(big);
    CHECK_EQ_INT(mmd_texpath_resolve(model, "body.bmp", false, out, sizeof out, NULL), MMD_OK);
}

/* Effects (texpath.h mmd_texpath_effect_root): under root/fx, the scene's
 * folder scene/ holding a ray-mmd-shaped pack and a loose effect, a pack
 * beside the scene's folder. */
static char fxroot[PATH_MAX]; /* realpath of root */

static void setup_effects(void)
{
    const char *dirs[] = {"fx", "fx/scene", "fx/scene/ray", "fx/scene/ray/Materials", "fx/scene/ray/Materials/Skin",
                          "fx/scene/ray/Shader", "fx/scene/a", "fx/packs", "fx/packs/p", "fx/packs/p/Materials",
                          "fx/packs/p/Materials/Skin"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        mkd(dirs[i]);
    const char *files[] = {"fx/scene/ray/Materials/Skin/x.fx", "fx/scene/ray/ray.conf",
                           "fx/scene/ray/Shader/Common.fxsub", "fx/scene/secret.png", "fx/scene/beside.fx", "fx/scene/a/b.fx",
                           "fx/packs/p/Materials/Skin/y.fx", "fx/packs/top.fx"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        touch(files[i]);
    ln_root("fx/scene/secret.png", "fx/scene/ray/Shader/link.png");
    ln_root("fx/scene", "fx/scene/ray/Shader/up");
    if (!realpath(root, fxroot))
        perror("realpath");
}

/* The root of effect rel named from namer (relative to root; NULL: none), relative to fxroot. */
static const char *effect_root(const char *rel_fx, const char *namer)
{
    static char out[PATH_MAX];
    char fx[PATH_MAX], nd[PATH_MAX];
    snprintf(fx, sizeof fx, "%s/%s", root, rel_fx);
    snprintf(nd, sizeof nd, "%s/%s", root, namer ? namer : "");
    if (mmd_texpath_effect_root(fx, namer ? nd : NULL, out, sizeof out) != 0)
        return "(failed)";
    size_t n = strlen(fxroot);
    return strncmp(out, fxroot, n) ? out : out[n] == '/' ? out + n + 1 : out + n;
}

TEST(effect_roots)
{
    setup_effects();
    /* ray-mmd's Materials/Skin/x.fx reaches the pack's folder, two up */
    CHECK_STR(effect_root("fx/scene/ray/Materials/Skin/x.fx", "fx/scene"), "fx/scene/ray");
    /* beside the scene: its folder; one down: not above the scene's folder */
    CHECK_STR(effect_root("fx/scene/beside.fx", "fx/scene"), "fx/scene");
    CHECK_STR(effect_root("fx/scene/a/b.fx", "fx/scene"), "fx/scene");
    /* named from the effect's own folder: not above it */
    CHECK_STR(effect_root("fx/scene/ray/Materials/Skin/x.fx", "fx/scene/ray/Materials/Skin"),
              "fx/scene/ray/Materials/Skin");
    /* outside the scene's folder (../packs/..., an absolute name): two up, but
     * never into the folder the scene and the effect share */
    CHECK_STR(effect_root("fx/packs/p/Materials/Skin/y.fx", "fx/scene"), "fx/packs/p");
    CHECK_STR(effect_root("fx/packs/top.fx", "fx/scene"), "fx/packs");
    /* named by no file (mmdrender effect): two up */
    CHECK_STR(effect_root("fx/packs/p/Materials/Skin/y.fx", NULL), "fx/packs/p");
    CHECK_STR(effect_root("fx/packs/top.fx", NULL), "");
    CHECK_STR(effect_root("fx/nothere.fx", "fx/scene"), "(failed)");
}

static int resolve_fx(const char *stored, bool outside, char *msg)
{
    char dir[PATH_MAX], top[PATH_MAX], out[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/fx/scene/ray/Materials/Skin", root);
    snprintf(top, sizeof top, "%s/fx/scene/ray", root);
    mmd_error err = {0};
    int r = mmd_texpath_resolve_in(dir, top, stored, outside, out, sizeof out, &err);
    snprintf(msg, PATH_MAX, "%s", r == MMD_OK ? out : err.msg);
    return r;
}

TEST(effect_reads_in_root)
{
    char msg[PATH_MAX];
    CHECK_EQ_INT(resolve_fx("../../ray.conf", false, msg), MMD_OK);
    CHECK_EQ_INT(resolve_fx("..\\..\\shader\\common.FXSUB", false, msg), MMD_OK); /* case, '\\' */
    CHECK(strstr(msg, "Shader/Common.fxsub") != NULL);
    CHECK_EQ_INT(resolve_fx("../../../secret.png", false, msg), MMD_E_UNSUPPORTED);
    CHECK(strstr(msg, "is outside ") != NULL && strstr(msg, "/fx/scene/ray (--allow-outside-assets)") != NULL);
    CHECK_EQ_INT(resolve_fx("/etc/passwd", false, msg), MMD_E_UNSUPPORTED);
    CHECK(strstr(msg, "absolute path") != NULL);
    CHECK_EQ_INT(resolve_fx("../../Shader/link.png", false, msg), MMD_E_UNSUPPORTED); /* a link out */
    CHECK_EQ_INT(resolve_fx("../../Shader/up/secret.png", false, msg), MMD_E_UNSUPPORTED); /* a folder link out */
    CHECK_EQ_INT(resolve_fx("../../Shader", false, msg), MMD_E_IO);                        /* a folder */
    /* the opened file checked again (a path swapped after the checks) */
    char top[PATH_MAX], p[PATH_MAX];
    snprintf(top, sizeof top, "%s/fx/scene/ray", root);
    snprintf(p, sizeof p, "%s/fx/scene/ray/ray.conf", root);
    int fd = open(p, O_RDONLY);
    CHECK(fd >= 0 && mmd_texpath_fd_inside(fd, top));
    close(fd);
    snprintf(p, sizeof p, "%s/fx/scene/ray/Shader/link.png", root);
    fd = open(p, O_RDONLY);
    CHECK(fd >= 0 && !mmd_texpath_fd_inside(fd, top)); /* opened through a link out */
    close(fd);
    CHECK_EQ_INT(resolve_fx("../../../secret.png", true, msg), MMD_OK); /* --allow-outside-assets */
    CHECK_EQ_INT(resolve_fx("../../Shader/link.png", true, msg), MMD_OK);
}

int main(void)
{
    setup();
    RUN(exact_and_separators);
    RUN(case_insensitive_per_component);
    RUN(shift_jis_names_on_disk);
    RUN(missing);
    RUN(refused_outside);
    RUN(allow_outside);
    RUN(errors);
    RUN(effect_roots);
    RUN(effect_reads_in_root);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", root);
    return test_finish();
}
