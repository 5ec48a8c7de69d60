// shaders/post_down_fs.glsl - one step down the bloom chain (half size): the
// mean of the 2x2 source texels (what the dual-filter downsample's five taps
// half a source texel apart amount to), one bilinear tap.
// PREFILTER 1 (Diffusion's first step, from the full frame to quarter size):
// a 4x4 box, keeping what is brighter than u_threshold in luma, scaled to
// 0..1 above it.
uniform sampler2D u_src;
uniform vec2 u_texel;      // 1 / source size
uniform float u_threshold;
in vec2 v_uv;
out vec4 o_color;

vec3 pick(vec3 c)
{
#if PREFILTER
    float l = dot(c, vec3(0.299, 0.587, 0.114));
    return c * (max(l - u_threshold, 0.0) / max(1.0 - u_threshold, 1e-3));
#else
    return c;
#endif
}

void main()
{
#if PREFILTER
    // first step, from the full frame straight to quarter size (the frame is
    // the dearest thing to read): four bilinear taps at the corners shared by
    // 2x2 texels, i.e. the mean of the 4x4 texels under this output texel,
    // thresholded per 2x2
    vec2 c = (floor(gl_FragCoord.xy) * 4.0 + 2.0) * u_texel;
    vec3 s = pick(texture(u_src, c + vec2(-1.0, -1.0) * u_texel).rgb) +
             pick(texture(u_src, c + vec2(1.0, -1.0) * u_texel).rgb) +
             pick(texture(u_src, c + vec2(-1.0, 1.0) * u_texel).rgb) + pick(texture(u_src, c + vec2(1.0, 1.0) * u_texel).rgb);
    o_color = vec4(s * 0.25, 1.0);
#else
    // the 2x2 source texels under this texel, one bilinear tap at their shared
    // corner (the dual filter's four diagonal taps half a source texel out
    // land on those same texel centres: the same mean, a fifth of the reads)
    o_color = vec4(texture(u_src, v_uv).rgb, 1.0);
#endif
}
