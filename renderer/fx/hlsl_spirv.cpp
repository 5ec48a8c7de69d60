/* renderer/fx/hlsl_spirv.cpp - the glslang bridge (renderer/fx/hlsl_spirv.h):
 * the translator's only C++, as core/physics_bullet.cpp is for Bullet. */
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "renderer/fx/hlsl_spirv.h"

namespace {

std::once_flag g_init_once;

std::string compile(const char *hlsl, size_t len, const char *name, const char *entry, mmd_fx_stage stage,
                    std::vector<unsigned int> &spirv);

/* glslang's process state, and its built-in symbol tables for HLSL's two
 * stages made by compiling two fixed shaders: children forked afterwards
 * (renderer/fx/isolate.c) inherit them instead of building them again. */
void init_glslang()
{
    glslang::InitializeProcess();
    static const char vs[] = "float4 v(float4 p : POSITION) : POSITION { return p; }\n";
    static const char ps[] = "float4 f() : COLOR0 { return 1; }\n";
    std::vector<unsigned int> spirv_vs, spirv_ps; /* GlslangToSpv appends: one vector each */
    try {
        compile(vs, sizeof vs - 1, "warm", "v", MMD_FX_STAGE_VERTEX, spirv_vs);
        compile(ps, sizeof ps - 1, "warm", "f", MMD_FX_STAGE_FRAGMENT, spirv_ps);
    } catch (...) {
    }
}

/* The first line of a glslang log that says ERROR, without the "ERROR: "
 * prefix; the whole first line when none does. Never empty. */
std::string first_error(const char *log)
{
    const char *p = log ? std::strstr(log, "ERROR: ") : nullptr;
    if (p)
        p += 7;
    else
        p = log ? log : "";
    std::string line(p, std::strcspn(p, "\n"));
    /* a link error names its function on the next, indented line */
    const char *next = p + line.size();
    if (*next == '\n' && (next[1] == ' ' || next[1] == '\t')) {
        next += std::strspn(next + 1, " \t") + 1;
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        line += ' ';
        line.append(next, std::strcspn(next, "\n"));
    }
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    if (line.empty())
        line = "glslang gave no message";
    return line;
}

const EShMessages k_messages = static_cast<EShMessages>(EShMsgReadHlsl | EShMsgHlslDX9Compatible |
                                                        EShMsgSpvRules | EShMsgHlslLegalization);

/* The SPIR-V of one stage appended to spirv: "" or glslang's first error. */
std::string compile(const char *hlsl, size_t len, const char *name, const char *entry, mmd_fx_stage stage,
                    std::vector<unsigned int> &spirv)
{
    EShLanguage lang = stage == MMD_FX_STAGE_VERTEX ? EShLangVertex : EShLangFragment;
    glslang::TShader shader(lang);
    const char *strings[] = {hlsl};
    const int lengths[] = {static_cast<int>(len)};
    const char *names[] = {name};
    shader.setStringsWithLengthsAndNames(strings, lengths, names, 1);
    shader.setEntryPoint(entry);
    shader.setSourceEntryPoint(entry);
    shader.setEnvInput(glslang::EShSourceHlsl, lang, glslang::EShClientVulkan, 100);
    shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0);
    shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
    shader.setEnvTargetHlslFunctionality1();
    shader.setHlslIoMapping(true);
    shader.setAutoMapLocations(true);
    shader.setAutoMapBindings(true);
    if (!shader.parse(GetDefaultResources(), 100, false, k_messages))
        return first_error(shader.getInfoLog());
    glslang::TProgram program;
    program.addShader(&shader);
    if (!program.link(k_messages) || !program.mapIO())
        return first_error(program.getInfoLog());
    glslang::SpvOptions options;
    options.disableOptimizer = false; /* HLSL needs SPIRV-Tools' legalisation */
    options.validate = false;
    spv::SpvBuildLogger logger;
    glslang::GlslangToSpv(*program.getIntermediate(lang), spirv, &logger, &options);
    if (spirv.empty())
        return first_error(logger.getAllMessages().c_str());
    return std::string();
}

} // namespace

extern "C" void mmd_fx_hlsl_warm(void)
{
    try {
        std::call_once(g_init_once, init_glslang);
    } catch (...) {
    }
}

extern "C" mmd_status mmd_fx_hlsl_to_spirv(const char *hlsl, size_t len, const char *name, const char *entry,
                                           mmd_fx_stage stage, uint32_t **words, size_t *word_count, mmd_error *err)
{
    if (len > static_cast<size_t>(INT32_MAX))
        return mmd_fail(err, MMD_E_LIMIT, "HLSL text too large");
    try {
        std::call_once(g_init_once, init_glslang);
        std::vector<unsigned int> spirv;
        std::string why = compile(hlsl, len, name, entry, stage, spirv);
        if (!why.empty())
            return mmd_fail(err, MMD_E_UNSUPPORTED, "%s", why.c_str());
        uint32_t *w = static_cast<uint32_t *>(std::malloc(spirv.size() * sizeof *w));
        if (!w)
            return mmd_fail(err, MMD_E_NOMEM, "out of memory");
        std::memcpy(w, spirv.data(), spirv.size() * sizeof *w);
        *words = w;
        *word_count = spirv.size();
        return MMD_OK;
    } catch (const std::bad_alloc &) {
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    } catch (...) {
        return mmd_fail(err, MMD_E_UNSUPPORTED, "glslang failed");
    }
}
