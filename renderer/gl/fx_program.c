/* renderer/gl/fx_program.c - compile and link a translated effect pass (fx_program.h). */
#include "renderer/gl/fx_program.h"

#include <stdio.h>
#include <string.h>

#include "renderer/gl/shader.h"

/* The first line of an info log that says "error" (the first line when none does). */
static void first_error(const char *log, char *out, size_t size)
{
    const char *line = log, *pick = NULL;
    while (*line && !pick) {
        size_t n = strcspn(line, "\n");
        for (size_t i = 0; i + 5 <= n; i++)
            if (!strncmp(line + i, "error", 5) || !strncmp(line + i, "ERROR", 5)) {
                pick = line;
                break;
            }
        line += n + (line[n] == '\n');
    }
    if (!pick)
        pick = log;
    size_t n = strcspn(pick, "\n");
    while (n && (pick[n - 1] == '\r' || pick[n - 1] == ' '))
        n--;
    snprintf(out, size, "%.*s", (int)n, n ? pick : "the driver gave no message");
}

mmd_status mmd_gl_fx_program_link(const mmd_gl *gl, const char *vs, const char *fs, GLuint *out, mmd_error *err)
{
    mmd_error e;
    if (mmd_gl_program_link(gl, &vs, 1, &fs, 1, false, out, &e) == MMD_OK)
        return MMD_OK;
    char line[400];
    first_error(e.msg, line, sizeof line);
    return mmd_fail(err, MMD_E_UNSUPPORTED, "%s: %s", e.section, line);
}
