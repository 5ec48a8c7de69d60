/* renderer/scene/mme_assign.c - MikuMikuEffect's .emm/.emd assignment files
 * (mme_assign.h): read whole, Shift-JIS to UTF-8, split into lines. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/arena.h"
#include "core/file.h"
#include "core/text.h"
#include "renderer/scene/mme_assign.h"

static char *trim(char *s, char *end)
{
    while (*s == ' ' || *s == '\t')
        s++;
    while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    *end = '\0';
    return s;
}

bool mmd_mme_assign_read(const char *path, mmd_mme_assign_fn fn, void *user)
{
    void *data = NULL;
    size_t size = 0;
    mmd_error err;
    if (mmd_file_read(path, &data, &size, &err) != MMD_OK)
        return false;
    mmd_text *t = mmd_text_create();
    mmd_arena *a = mmd_arena_create();
    char *text = t && a ? mmd_text_sjis(t, a, data, size, NULL) : NULL;
    char section[64] = "";
    bool effect = false;
    char *save = NULL;
    for (char *line = text ? strtok_r(text, "\r\n", &save) : NULL; line; line = strtok_r(NULL, "\r\n", &save)) {
        line = trim(line, line + strlen(line));
        if (*line == '[') {
            char *close = strchr(line, ']');
            size_t n = close ? (size_t)(close - line - 1) : strlen(line + 1);
            effect = n < sizeof section && !strncasecmp(line + 1, "Effect", 6);
            if (effect) {
                memcpy(section, line + 1, n);
                section[n] = '\0';
            }
            continue;
        }
        char *eq = strchr(line, '=');
        if (effect && eq)
            fn(user, section, trim(line, eq), trim(eq + 1, eq + 1 + strlen(eq + 1)));
    }
    mmd_arena_destroy(a);
    mmd_text_destroy(t);
    free(data);
    return true;
}

/* Digits at *p (at most 9: an index or object number beyond is not MME's) into *out. */
static bool digits(const char **p, uint32_t *out)
{
    uint32_t v = 0;
    int n = 0;
    for (; isdigit((unsigned char)**p) && n < 10; (*p)++, n++)
        v = v * 10 + (uint32_t)(**p - '0');
    *out = v;
    return n > 0 && n < 10;
}

bool mmd_mme_assign_key(const char *key, const char *prefix, uint32_t *number, int64_t *material)
{
    size_t n = strlen(prefix);
    if (strncasecmp(key, prefix, n))
        return false;
    const char *p = key + n;
    *number = 0;
    *material = -1;
    if (isdigit((unsigned char)*p) && !digits(&p, number))
        return false;
    if (*p == '[') {
        uint32_t m;
        p++;
        if (!digits(&p, &m) || *p++ != ']')
            return false;
        *material = m;
    }
    return *p == '\0';
}
