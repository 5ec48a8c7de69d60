/* renderer/gl/shader.c - compile and link the embedded GLSL. */
#include "renderer/gl/shader.h"

#include <stdio.h>
#include <string.h>

#include "shaders.h"

const char *mmd_gl_shader_source(const char *name)
{
    for (size_t i = 0; i < mmd_shader_source_count; i++)
        if (!strcmp(mmd_shader_sources[i].name, name))
            return mmd_shader_sources[i].text;
    return NULL;
}

static mmd_status compile(const mmd_gl *gl, GLenum type, const char *name, const char *defines, GLuint *out,
                          mmd_error *err)
{
    const char *body = mmd_gl_shader_source(name);
    if (!body)
        return mmd_fail(err, MMD_E_GL, "shader %s not embedded", name);
    const char *parts[3] = {"#version 330 core\n", defines ? defines : "", body};
    GLuint s = gl->CreateShader(type);
    gl->ShaderSource(s, 3, parts, NULL);
    gl->CompileShader(s);
    GLint ok = 0;
    gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        gl->GetShaderInfoLog(s, sizeof log, NULL, log);
        gl->DeleteShader(s);
        return mmd_fail(err, MMD_E_GL, "shader %s: %s", name, log);
    }
    *out = s;
    return MMD_OK;
}

mmd_status mmd_gl_program_build(const mmd_gl *gl, const char *vs_name, const char *fs_name, const char *defines,
                                GLuint *out, mmd_error *err)
{
    GLuint vs = 0, fs = 0;
    mmd_status st = compile(gl, GL_VERTEX_SHADER, vs_name, defines, &vs, err);
    if (st != MMD_OK)
        return st;
    if ((st = compile(gl, GL_FRAGMENT_SHADER, fs_name, defines, &fs, err)) != MMD_OK) {
        gl->DeleteShader(vs);
        return st;
    }
    GLuint p = gl->CreateProgram();
    gl->AttachShader(p, vs);
    gl->AttachShader(p, fs);
    gl->BindAttribLocation(p, MMD_ATTR_POSITION, "a_position");
    gl->BindAttribLocation(p, MMD_ATTR_NORMAL, "a_normal");
    gl->BindAttribLocation(p, MMD_ATTR_UV, "a_uv");
    gl->BindAttribLocation(p, MMD_ATTR_ADD_UV1, "a_add_uv1");
    gl->BindAttribLocation(p, MMD_ATTR_EDGE, "a_edge");
    gl->BindAttribLocation(p, MMD_ATTR_GLOW, "a_glow");
    gl->LinkProgram(p);
    gl->DeleteShader(vs);
    gl->DeleteShader(fs);
    GLint ok = 0;
    gl->GetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        gl->GetProgramInfoLog(p, sizeof log, NULL, log);
        gl->DeleteProgram(p);
        return mmd_fail(err, MMD_E_GL, "program %s+%s: %s", vs_name, fs_name, log);
    }
    *out = p;
    return MMD_OK;
}

int mmd_gl_variant_defines(const mmd_variant_bit *rows, size_t n, int key, char *out, size_t size)
{
    size_t len = 0;
    if (size)
        out[0] = 0;
    for (size_t i = 0; i < n && len < size; i++) {
        int w = snprintf(out + len, size - len, "#define %s %d\n", rows[i].name,
                         (key >> rows[i].shift) & ((1 << rows[i].bits) - 1));
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return (int)len;
}
