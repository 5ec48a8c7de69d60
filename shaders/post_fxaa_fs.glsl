// shaders/post_fxaa_fs.glsl - post-process edge anti-aliasing in the manner of
// Lottes' FXAA (its small "PC console" form, written from its description):
// the luma of the four diagonal neighbours gives the direction along an edge;
// two and four bilinear taps along it give a narrow and a wide blend, and the
// wide one is kept unless its luma leaves the neighbourhood's range (then it
// crossed another edge). Nine reads a pixel: llvmpipe runs every instruction
// for every pixel (no per-pixel early exit), so FXAA's longer edge walk would
// cost several times more.
uniform sampler2D u_src;
uniform vec2 u_texel; // 1 / size
in vec2 v_uv;
out vec4 o_color;

float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 m = textureSize(u_src, 0) - 1;
    vec4 cm = texelFetch(u_src, p, 0);
    float lm = luma(cm.rgb);
    // "north" is -y here (texture rows), as in FXAA's own sign conventions
    float lnw = luma(texelFetch(u_src, clamp(p + ivec2(-1, -1), ivec2(0), m), 0).rgb);
    float lne = luma(texelFetch(u_src, clamp(p + ivec2(1, -1), ivec2(0), m), 0).rgb);
    float lsw = luma(texelFetch(u_src, clamp(p + ivec2(-1, 1), ivec2(0), m), 0).rgb);
    float lse = luma(texelFetch(u_src, clamp(p + ivec2(1, 1), ivec2(0), m), 0).rgb);
    float lo = min(lm, min(min(lnw, lne), min(lsw, lse)));
    float hi = max(lm, max(max(lnw, lne), max(lsw, lse)));
    vec2 dir = vec2(-((lnw + lne) - (lsw + lse)), (lnw + lsw) - (lne + lse));
    float reduce = max((lnw + lne + lsw + lse) * (0.25 * 0.125), 1.0 / 128.0);
    float rcp_min = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
    dir = clamp(dir * rcp_min, vec2(-8.0), vec2(8.0)) * u_texel;
    vec4 a = 0.5 * (texture(u_src, v_uv + dir * (1.0 / 3.0 - 0.5)) + texture(u_src, v_uv + dir * (2.0 / 3.0 - 0.5)));
    vec4 b = a * 0.5 + 0.25 * (texture(u_src, v_uv - dir * 0.5) + texture(u_src, v_uv + dir * 0.5));
    float lb = luma(b.rgb);
    vec4 res = lb < lo || lb > hi ? a : b;
    // flat areas (no contrast) keep their exact texel
    o_color = hi - lo < max(0.0312, hi * 0.125) ? cm : res;
}
