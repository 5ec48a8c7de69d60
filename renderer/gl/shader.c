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

/* One stage from its parts; MMD_E_GL with the driver's log in err on failure. */
static mmd_status compile_stage(const mmd_gl *gl, GLenum type, const char *const *parts, int count, GLuint *out,
                                mmd_error *err)
{
    const char *what = type == GL_VERTEX_SHADER ? "vertex shader" : "pixel shader";
    GLuint s = gl->CreateShader(type);
    if (!s)
        return mmd_error_set(err, MMD_E_GL, what, -1, -1, "glCreateShader failed");
    gl->ShaderSource(s, count, parts, NULL);
    gl->CompileShader(s);
    GLint ok = 0;
    gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[sizeof err->msg] = "";
        gl->GetShaderInfoLog(s, sizeof log, NULL, log);
        gl->DeleteShader(s);
        return mmd_error_set(err, MMD_E_GL, what, -1, -1, "%s", log);
    }
    *out = s;
    return MMD_OK;
}

mmd_status mmd_gl_program_link(const mmd_gl *gl, const char *const *vs, int vs_count, const char *const *fs,
                               int fs_count, bool fixed_attributes, GLuint *out, mmd_error *err)
{
    GLuint v = 0, f = 0;
    mmd_status st = compile_stage(gl, GL_VERTEX_SHADER, vs, vs_count, &v, err);
    if (st != MMD_OK)
        return st;
    if ((st = compile_stage(gl, GL_FRAGMENT_SHADER, fs, fs_count, &f, err)) != MMD_OK) {
        gl->DeleteShader(v);
        return st;
    }
    GLuint p = gl->CreateProgram();
    gl->AttachShader(p, v);
    gl->AttachShader(p, f);
    if (fixed_attributes) {
        gl->BindAttribLocation(p, MMD_ATTR_POSITION, "a_position");
        gl->BindAttribLocation(p, MMD_ATTR_NORMAL, "a_normal");
        gl->BindAttribLocation(p, MMD_ATTR_UV, "a_uv");
        gl->BindAttribLocation(p, MMD_ATTR_ADD_UV1, "a_add_uv1");
        gl->BindAttribLocation(p, MMD_ATTR_EDGE, "a_edge");
        gl->BindAttribLocation(p, MMD_ATTR_GLOW, "a_glow");
    }
    gl->LinkProgram(p);
    gl->DeleteShader(v);
    gl->DeleteShader(f);
    GLint ok = 0;
    gl->GetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[sizeof err->msg] = "";
        gl->GetProgramInfoLog(p, sizeof log, NULL, log);
        gl->DeleteProgram(p);
        return mmd_error_set(err, MMD_E_GL, "link", -1, -1, "%s", log);
    }
    *out = p;
    return MMD_OK;
}

mmd_status mmd_gl_program_build(const mmd_gl *gl, const char *vs_name, const char *fs_name, const char *defines,
                                GLuint *out, mmd_error *err)
{
    const char *vs_body = mmd_gl_shader_source(vs_name), *fs_body = mmd_gl_shader_source(fs_name);
    if (!vs_body || !fs_body)
        return mmd_fail(err, MMD_E_GL, "shader %s not embedded", vs_body ? fs_name : vs_name);
    const char *vs[3] = {"#version 330 core\n", defines ? defines : "", vs_body};
    const char *fs[3] = {"#version 330 core\n", defines ? defines : "", fs_body};
    mmd_error e;
    if (mmd_gl_program_link(gl, vs, 3, fs, 3, true, out, &e) == MMD_OK)
        return MMD_OK;
    if (!strcmp(e.section, "link"))
        return mmd_fail(err, MMD_E_GL, "program %s+%s: %s", vs_name, fs_name, e.msg);
    return mmd_fail(err, MMD_E_GL, "shader %s: %s", !strcmp(e.section, "vertex shader") ? vs_name : fs_name, e.msg);
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
