/* tests/unit/test_assets_motions.c - every shared VMD parses and matches the
 * reference dump (counts per section, IK states, last frame). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/motion.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* Integer value of the first `"key":` after `from` (simple, for the known dump keys). */
static long json_int(const char *json, const char *from, const char *key)
{
    const char *p = from ? strstr(json, from) : json;
    if (!p)
        return -999;
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    p = strstr(p, pat);
    if (!p)
        return -999;
    return strtol(p + strlen(pat), NULL, 10);
}

static int check_file(const char *dir, const char *name)
{
    char path[512], ref[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(ref, sizeof ref, "%s/%s.dump.json", MMD_SHARED_REFERENCE, name);
    void *js = NULL;
    size_t jn = 0;
    mmd_error e;
    if (mmd_file_read(ref, &js, &jn, &e) != MMD_OK) {
        printf("#   no reference for %s\n", name);
        return 0;
    }
    char *json = malloc(jn + 1);
    memcpy(json, js, jn);
    json[jn] = 0;
    free(js);
    mmd_motion *m = NULL;
    mmd_status st = mmd_motion_load_file(path, &m, &e);
    CHECK_EQ_INT(st, MMD_OK);
    if (st == MMD_OK) {
        CHECK_EQ_INT(m->bone_key_count, json_int(json, "\"counts\"", "bone"));
        CHECK_EQ_INT(m->morph_key_count, json_int(json, "\"counts\"", "morph"));
        CHECK_EQ_INT(m->camera_key_count, json_int(json, "\"counts\"", "camera"));
        CHECK_EQ_INT(m->light_key_count, json_int(json, "\"counts\"", "light"));
        CHECK_EQ_INT(m->shadow_key_count, json_int(json, "\"counts\"", "selfShadow"));
        CHECK_EQ_INT(m->property_key_count, json_int(json, "\"counts\"", "property"));
        long ik = 0;
        for (uint32_t i = 0; i < m->property_key_count; i++)
            ik += m->property_keys[i].ik_count;
        CHECK_EQ_INT(ik, json_int(json, "\"counts\"", "propertyIkStates"));
        CHECK_EQ_INT(m->last_frame, json_int(json, NULL, "maxFrame"));
        CHECK_EQ_INT(m->version, 2);
        /* the reference shows a cut name with U+FFFD; ours drops the cut byte */
        const char *rn = strstr(json, "\"modelName\": \"");
        if (rn)
            CHECK(!strncmp(rn + 14, m->model_name, strlen(m->model_name)));
        mmd_motion_free(m);
    }
    free(json);
    return 1;
}

TEST(shared_motions_match_reference)
{
    const char *dir = MMD_SHARED_ASSETS "/gene/motion";
    DIR *d = opendir(dir);
    if (!d)
        SKIP("skipped: no ../shared");
    int checked = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l > 4 && !strcmp(de->d_name + l - 4, ".vmd"))
            checked += check_file(dir, de->d_name);
    }
    closedir(d);
    CHECK(checked >= 5);
}

int main(void)
{
    RUN(shared_motions_match_reference);
    return test_finish();
}
