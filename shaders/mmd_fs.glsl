// shaders/mmd_fs.glsl - MMD's full.fx shading in gamma space (DESIGN E.1, E.5).
// Compiled per material kind (llvmpipe runs both sides of uniform branches):
// HAS_TEX 0/1, SPHERE_MODE 0 none / 1 mul / 2 add / 3 sub-texture (add UV1, mul),
// VERTEX_COLOR 0/1 (additional UV1 is the colour), SELF_SHADOW 0 toon path /
// 1 MMD self-shadow receiver (u_shadow_mode says mode 1 or 2), SPECULAR 0/1
// (power > 0 and a non-black specular colour), TINT 0/1 (some texture / sphere /
// toon factor of a material morph is not at identity: 0 skips that arithmetic).
// Effects (issue 18; absent = 0, and 0 leaves the shading above untouched):
// SOFT_SHADOW 1 filters the self-shadow map (PCF), 2 with contact hardening.
in vec3 v_pos;
in vec3 v_normal;
in vec3 v_normal_view;
in vec2 v_uv;
in vec4 v_add_uv1;
in vec4 v_shadow;

uniform vec4 u_diffuse;
uniform vec3 u_ambient;
uniform vec3 u_specular;
uniform float u_power;
uniform vec3 u_light_color;
uniform vec3 u_light_dir;   // LH, normalised, pointing from the light
uniform vec3 u_eye;         // LH
uniform sampler2D u_tex;
uniform sampler2D u_sphere;
uniform sampler2D u_toon;
uniform sampler2D u_shadow_map;
uniform int u_shadow_mode;  // 1/2: MMD self-shadow mode (SELF_SHADOW only)
uniform vec4 u_tex_mul, u_tex_add, u_sph_mul, u_sph_add, u_toon_mul, u_toon_add;

out vec4 o_color;
#if SOFT_SHADOW
uniform sampler2DShadow u_shadow_cmp; // the same map with a LINEAR compare sampler (unit 4)
uniform vec3 u_soft; // x: filter radius (texels), y: 1 / map size, z: penumbra texels per unit of depth gap

// Receiver-plane depth slope (d depth / d st) from screen derivatives, so each
// filter tap compares against the depth the receiver's own plane has there:
// no acne on slopes without a large constant bias that detaches shadows.
vec2 depth_slope(vec3 s)
{
    vec3 dx = dFdx(s), dy = dFdy(s);
    float det = dx.x * dy.y - dx.y * dy.x;
    if (abs(det) < 1e-14)
        return vec2(0.0);
    vec2 g = vec2(dx.z * dy.y - dx.y * dy.z, dx.x * dy.z - dx.z * dy.x) / det;
    // at most 3e-4 of window depth per texel: about 75 degrees off the light in
    // MMD's shadow projection (0.075 depth per map width); steeper slopes and
    // the quads that straddle a silhouette would otherwise bias light through
    float lim = 2e-4 / u_soft.y;
    return clamp(g, vec2(-lim), vec2(lim));
}

float tap(vec3 s, vec2 g, vec2 o, float bias)
{
    return texture(u_shadow_cmp, vec3(s.xy + o, s.z + dot(g, o) - bias));
}

// Hardware-compare taps (each a bilinear 2x2 PCF) spread over +-radius
// texels. SOFT_TAPS follows the radius, fixed for a run: each tap costs about
// 2.7% of a 1080p frame on llvmpipe, and its branches do not skip work, so
// there is no early out. SOFT_TAPS 2 (radius <= 2, the default): three taps on
// a triangle 0.6 x radius out (rotated, so no edge direction gets a hard
// penumbra); 3 and 4: a SOFT_TAPS x SOFT_TAPS grid.
float pcf(vec3 s, vec2 g, float radius)
{
    float bias = 6e-5 + (abs(g.x) + abs(g.y)) * u_soft.y;
#if SOFT_TAPS == 2
    float rr = max(radius, 0.5) * 0.6 * u_soft.y;
    return (tap(s, g, vec2(0.0, rr), bias) + tap(s, g, vec2(-0.8660254, -0.5) * rr, bias) +
            tap(s, g, vec2(0.8660254, -0.5) * rr, bias)) / 3.0;
#else
    float stp = 2.0 * max(radius, 0.5) / float(SOFT_TAPS) * u_soft.y;
    float sum = 0.0;
    for (int j = 0; j < SOFT_TAPS; j++)
        for (int i = 0; i < SOFT_TAPS; i++)
            sum += tap(s, g, (vec2(float(i), float(j)) - 0.5 * float(SOFT_TAPS - 1)) * stp, bias);
    return sum / float(SOFT_TAPS * SOFT_TAPS);
#endif
}

float soft_shadow(vec3 s, vec2 g)
{
#if SOFT_SHADOW == 2
    // contact hardening: the mean depth of the blockers near this texel sets
    // the penumbra (wide far from the caster, sharp where they touch)
    float stp = 2.0 * u_soft.x / float(SOFT_TAPS) * u_soft.y;
    float bias = 1e-4 + (abs(g.x) + abs(g.y)) * u_soft.y;
    float bsum = 0.0, bn = 0.0;
    for (int j = 0; j < SOFT_TAPS; j++)
        for (int i = 0; i < SOFT_TAPS; i++) {
            vec2 o = (vec2(float(i), float(j)) - 0.5 * float(SOFT_TAPS - 1)) * stp;
            float d = texture(u_shadow_map, s.xy + o).r;
            if (d < s.z + dot(g, o) - bias) {
                bsum += d;
                bn += 1.0;
            }
        }
    if (bn == 0.0)
        return 1.0;
    float w = clamp((s.z - bsum / bn) * u_soft.z, 0.5, u_soft.x);
    return pcf(s, g, w);
#else
    return pcf(s, g, u_soft.x);
#endif
}
#endif

#if TINT
vec3 tint(vec3 c, vec4 mul, vec4 add)
{
    c = mix(vec3(1.0), c * mul.rgb, mul.a);
    return clamp(c + (c - 1.0) * add.a, 0.0, 1.0) + add.rgb;
}
#else
#define tint(c, mul, add) (c) // every material morph factor at identity (mul 1, add 0)
#endif

#ifdef ANISO_TAPS
// texture_filter aniso4 (render.h): anisotropic filtering in the shader, GL's rule
// (EXT_texture_filter_anisotropic) with at most ANISO_TAPS trilinear taps along the
// footprint's major axis at the level of its length / taps; the sampler itself is
// trilinear. A fraction of llvmpipe's own anisotropic path (docs/benchmarks.md).
vec4 sample_tex(sampler2D tex, vec2 uv)
{
    vec2 size = vec2(textureSize(tex, 0));
    vec2 gx = dFdx(uv), gy = dFdy(uv);
    float lx = length(gx * size), ly = length(gy * size);
    float pmax = max(lx, ly), pmin = min(lx, ly);
    float n = clamp(ceil(pmax / max(pmin, 1e-6)), 1.0, float(ANISO_TAPS));
    float lod = log2(max(pmax / n, 1e-6));
    vec2 axis = lx > ly ? gx : gy;
    vec4 sum = vec4(0.0);
    for (float i = 0.0; i < n; i += 1.0)
        sum += textureLod(tex, uv + axis * ((i + 0.5) / n - 0.5), lod);
    return sum / n;
}
#else
#define sample_tex(tex, uv) texture(tex, uv)
#endif

void main()
{
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec4 color = vec4(clamp(u_diffuse.rgb * u_light_color + u_ambient, 0.0, 1.0), u_diffuse.a);
#if VERTEX_COLOR
    color *= v_add_uv1;
#endif
#if HAS_TEX
    vec4 t = sample_tex(u_tex, v_uv);

    color.rgb *= tint(t.rgb, u_tex_mul, u_tex_add);
    color.a *= t.a;
#endif
#if SPHERE_MODE != 0
#if SPHERE_MODE == 3
    vec2 suv = v_add_uv1.xy;
#else
    vec3 nv = normalize(v_normal_view);
    vec2 suv = vec2(0.5 + 0.5 * nv.x, 0.5 - 0.5 * nv.y);
#endif
    vec4 s = texture(u_sphere, suv);
    vec3 sc = tint(s.rgb, u_sph_mul, u_sph_add);
#if SPHERE_MODE == 2
    color.rgb += sc;
#else
    color.rgb *= sc;
#endif
    color.a *= s.a;
#endif
#if SPECULAR
    vec3 h = normalize(normalize(u_eye - v_pos) - l);
    vec3 spec = u_specular * u_light_color * pow(max(0.0, dot(n, h)), u_power);
#else
    vec3 spec = vec3(0.0);
#endif
    float ndl = dot(n, -l);
#if !SELF_SHADOW
    vec4 toon = texture(u_toon, vec2(0.0, 0.5 - 0.5 * ndl));
    color.rgb *= tint(toon.rgb, u_toon_mul, u_toon_add);
    color.rgb += spec;
    o_color = clamp(color, 0.0, 1.0);
#else
    // Self-shadow receiver: shadow colour = colour x toon's darkest row.
    // texture(u_toon, vec2(0, 1)) reads exactly texel (0, height - 1) (clamped,
    // unmipmapped, every filter tap on that texel): fetch it without filtering.
    vec3 toon_dark = tint(texelFetch(u_toon, ivec2(0, textureSize(u_toon, 0).y - 1), 0).rgb, u_toon_mul, u_toon_add);
    vec4 shadow_color = vec4(color.rgb * toon_dark, color.a);
    color.rgb += spec;
    vec3 shc = v_shadow.xyz / v_shadow.w;
    vec2 st = shc.xy * 0.5 + 0.5;
    float comp = 1.0;
#if SOFT_SHADOW
    vec3 sw = vec3(st, shc.z * 0.5 + 0.5); // map space: st and window depth
    vec2 slope = depth_slope(sw);          // derivatives outside the branch
#endif
    if (v_shadow.w > 0.0 && all(greaterThanEqual(st, vec2(0.0))) && all(lessThanEqual(st, vec2(1.0)))) {
#if SOFT_SHADOW
        comp = soft_shadow(sw, slope);
#else
        float zmap = texture(u_shadow_map, st).r * 2.0 - 1.0;
        float k = u_shadow_mode == 2 ? 8000.0 * (1.0 - st.y) : 1500.0;
        comp = 1.0 - clamp(max(shc.z - zmap, 0.0) * k - 0.3, 0.0, 1.0);
#endif
    }
    comp = min(clamp(ndl * 3.0, 0.0, 1.0), comp);
    o_color = clamp(mix(shadow_color, color, comp), 0.0, 1.0);
#endif
}
