// shaders/post_up_fs.glsl - one step up the bloom chain: the dual-filter
// upsample (a tent of eight bilinear taps of the smaller level), added by the
// blend state (ONE, ONE) onto the next larger level, so each level ends as
// itself plus everything below it blurred once more. TAPS 4 (the glow's step
// into its largest level, pass_post.c): the four diagonal taps only, a 3x3
// tent of the smaller level's texels at half the reads (the step is the
// chain's dearest: the 1080p glow measured ~2 ms less).
uniform sampler2D u_src;
uniform vec2 u_texel;      // 1 / source (smaller level) size
in vec2 v_uv;
out vec4 o_color;

void main()
{
    vec2 h = u_texel * 0.5;
#if TAPS == 4
    vec3 s = texture(u_src, v_uv + vec2(-h.x, -h.y)).rgb;
    s += texture(u_src, v_uv + vec2(h.x, -h.y)).rgb;
    s += texture(u_src, v_uv + vec2(-h.x, h.y)).rgb;
    s += texture(u_src, v_uv + vec2(h.x, h.y)).rgb;
    o_color = vec4(s * 0.25, 1.0);
#else
    vec3 s = texture(u_src, v_uv + vec2(-2.0 * h.x, 0.0)).rgb;
    s += texture(u_src, v_uv + vec2(2.0 * h.x, 0.0)).rgb;
    s += texture(u_src, v_uv + vec2(0.0, -2.0 * h.y)).rgb;
    s += texture(u_src, v_uv + vec2(0.0, 2.0 * h.y)).rgb;
    s += texture(u_src, v_uv + vec2(-h.x, -h.y)).rgb * 2.0;
    s += texture(u_src, v_uv + vec2(h.x, -h.y)).rgb * 2.0;
    s += texture(u_src, v_uv + vec2(-h.x, h.y)).rgb * 2.0;
    s += texture(u_src, v_uv + vec2(h.x, h.y)).rgb * 2.0;
    o_color = vec4(s / 12.0, 1.0);
#endif
}
