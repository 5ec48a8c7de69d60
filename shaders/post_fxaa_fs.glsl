// shaders/post_fxaa_fs.glsl - post-process edge anti-aliasing after the idea
// of Lottes' FXAA (quality preset, written from its description): find where
// luma contrast marks an edge, decide whether it runs horizontally or
// vertically, walk along it to both ends, and blend each pixel with its
// neighbour across the edge by how far it sits from the edge's nearer end
// (plus a little sub-pixel smoothing). Texel-exact reads keep it deterministic.
uniform sampler2D u_src;
uniform vec2 u_texel; // 1 / size
in vec2 v_uv;
out vec4 o_color;

float luma_at(ivec2 p)
{
    ivec2 m = textureSize(u_src, 0) - 1;
    return dot(texelFetch(u_src, clamp(p, ivec2(0), m), 0).rgb, vec3(0.299, 0.587, 0.114));
}

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 cm = texelFetch(u_src, p, 0);
    float lm = dot(cm.rgb, vec3(0.299, 0.587, 0.114));
    float ln = luma_at(p + ivec2(0, 1)), ls = luma_at(p + ivec2(0, -1));
    float le = luma_at(p + ivec2(1, 0)), lw = luma_at(p + ivec2(-1, 0));
    float lo = min(lm, min(min(ln, ls), min(le, lw)));
    float hi = max(lm, max(max(ln, ls), max(le, lw)));
    float range = hi - lo;
    if (range < max(0.0312, hi * 0.125)) {
        o_color = cm;
        return;
    }
    float lne = luma_at(p + ivec2(1, 1)), lnw = luma_at(p + ivec2(-1, 1));
    float lse = luma_at(p + ivec2(1, -1)), lsw = luma_at(p + ivec2(-1, -1));
    // sub-pixel amount: how much the centre differs from its 3x3 average
    float avg = (2.0 * (ln + ls + le + lw) + lne + lnw + lse + lsw) / 12.0;
    float sub = clamp(abs(avg - lm) / range, 0.0, 1.0);
    sub = smoothstep(0.0, 1.0, sub);
    sub = sub * sub * 0.75;
    float eh = abs(lnw + lne - 2.0 * ln) + 2.0 * abs(lw + le - 2.0 * lm) + abs(lsw + lse - 2.0 * ls);
    float ev = abs(lnw + lsw - 2.0 * lw) + 2.0 * abs(ln + ls - 2.0 * lm) + abs(lne + lse - 2.0 * le);
    bool horiz = eh >= ev; // the edge runs along x: blend across y
    float l1 = horiz ? ls : lw, l2 = horiz ? ln : le;
    float g1 = abs(l1 - lm), g2 = abs(l2 - lm);
    bool first = g1 >= g2; // the steeper side
    float grad = 0.25 * max(g1, g2);
    float lside = 0.5 * ((first ? l1 : l2) + lm);
    ivec2 across = horiz ? ivec2(0, first ? -1 : 1) : ivec2(first ? -1 : 1, 0);
    ivec2 along = horiz ? ivec2(1, 0) : ivec2(0, 1);
    // walk both ways along the edge (between this row and the one across it)
    int dn = 0, dp = 0;
    bool done_n = false, done_p = false;
    float en = 0.0, ep = 0.0;
    for (int i = 1; i <= 12; i++) {
        if (!done_n) {
            ivec2 q = p - along * i;
            en = 0.5 * (luma_at(q) + luma_at(q + across)) - lside;
            done_n = abs(en) >= grad;
            dn = i;
        }
        if (!done_p) {
            ivec2 q = p + along * i;
            ep = 0.5 * (luma_at(q) + luma_at(q + across)) - lside;
            done_p = abs(ep) >= grad;
            dp = i;
        }
        if (done_n && done_p)
            break;
    }
    bool nearer_n = dn < dp;
    float dist = float(min(dn, dp));
    float span = float(dn + dp);
    bool centre_lower = lm - lside < 0.0;
    bool good = ((nearer_n ? en : ep) < 0.0) != centre_lower;
    float edge = good ? 0.5 - dist / span : 0.0;
    float k = max(edge, sub);
    vec4 other = texelFetch(u_src, clamp(p + across, ivec2(0), textureSize(u_src, 0) - 1), 0);
    o_color = mix(cm, other, k);
}
