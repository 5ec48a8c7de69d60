/* renderer/gl/fx_program.c - compile and link a translated effect pass (fx_program.h). */
#include "renderer/gl/fx_program.h"

#include <stdio.h>
#include <string.h>

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

static GLuint compile(const mmd_gl *gl, GLenum type, const char *src, mmd_error *err)
{
    GLuint s = gl->CreateShader(type);
    if (!s) {
        mmd_fail(err, MMD_E_UNSUPPORTED, "%s: glCreateShader failed",
                 type == GL_VERTEX_SHADER ? "vertex shader" : "pixel shader");
        return 0;
    }
    gl->ShaderSource(s, 1, &src, NULL);
    gl->CompileShader(s);
    GLint ok = 0;
    gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = "", line[400];
        gl->GetShaderInfoLog(s, sizeof log, NULL, log);
        first_error(log, line, sizeof line);
        mmd_fail(err, MMD_E_UNSUPPORTED, "%s: %s", type == GL_VERTEX_SHADER ? "vertex shader" : "pixel shader", line);
        gl->DeleteShader(s);
        return 0;
    }
    return s;
}

mmd_status mmd_gl_fx_program_link(const mmd_gl *gl, const char *vs, const char *fs, GLuint *out, mmd_error *err)
{
    GLuint v = compile(gl, GL_VERTEX_SHADER, vs, err);
    if (!v)
        return MMD_E_UNSUPPORTED;
    GLuint f = compile(gl, GL_FRAGMENT_SHADER, fs, err);
    if (!f) {
        gl->DeleteShader(v);
        return MMD_E_UNSUPPORTED;
    }
    GLuint p = gl->CreateProgram();
    gl->AttachShader(p, v);
    gl->AttachShader(p, f);
    gl->LinkProgram(p);
    gl->DeleteShader(v);
    gl->DeleteShader(f);
    GLint ok = 0;
    gl->GetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "", line[400];
        gl->GetProgramInfoLog(p, sizeof log, NULL, log);
        first_error(log, line, sizeof line);
        gl->DeleteProgram(p);
        return mmd_fail(err, MMD_E_UNSUPPORTED, "link: %s", line);
    }
    *out = p;
    return MMD_OK;
}
