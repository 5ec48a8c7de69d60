// shaders/acc_fs.glsl - MMD accessory colour pass (nanoem's accessory shader):
// texture x sphere (SPHERE_MODE 1 multiply .sph, 2 add .spa) x per-vertex
// colour; self-shadow receiving mixes toward texture x ambient (SELF_SHADOW);
// Blinn specular added last (SPECULAR). No toon, no edge.
in vec3 v_pos;
in vec3 v_normal;
in vec2 v_uv;
in vec2 v_sphere_uv;
in vec4 v_color;
in vec4 v_shadow;

uniform vec4 u_diffuse;
uniform vec3 u_emissive;
uniform vec3 u_specular;
uniform float u_power;
uniform vec3 u_light_color;
uniform vec3 u_light_dir;
uniform vec3 u_eye;
uniform sampler2D u_tex;
uniform sampler2D u_sphere;
uniform sampler2D u_shadow_map;
uniform int u_shadow_mode;

out vec4 o_color;

void main()
{
    vec4 base = vec4(1.0);
#if HAS_TEX
    base *= texture(u_tex, v_uv);
#endif
#if SPHERE_MODE == 1
    base *= texture(u_sphere, v_sphere_uv);
#elif SPHERE_MODE == 2
    base.rgb += texture(u_sphere, v_sphere_uv).rgb;
#endif
    vec3 n = normalize(v_normal);
    vec4 color = base * v_color;
#if SELF_SHADOW
    vec3 ambient = u_diffuse.rgb * (u_light_color - 0.3) + u_emissive;
    vec4 shadow_color = base * vec4(ambient, color.a);
    vec3 shc = v_shadow.xyz / v_shadow.w;
    vec2 st = shc.xy * 0.5 + 0.5;
    if (v_shadow.w > 0.0 && all(greaterThanEqual(st, vec2(0.0))) && all(lessThanEqual(st, vec2(1.0)))) {
        float zmap = texture(u_shadow_map, st).r * 2.0 - 1.0;
        float k = u_shadow_mode == 2 ? 8000.0 * (1.0 - st.y) : 1500.0;
        float comp = 1.0 - clamp(max(shc.z - zmap, 0.0) * k - 0.3, 0.0, 1.0);
        comp = min(clamp(dot(n, -u_light_dir), 0.0, 1.0), comp);
        color = mix(shadow_color, color, comp);
    }
#endif
#if SPECULAR
    vec3 h = normalize(normalize(u_eye - v_pos) - u_light_dir);
    color.rgb += u_specular * u_light_color * pow(max(dot(n, h), 0.0), u_power);
#endif
    o_color = clamp(color, 0.0, 1.0);
}
