float4x4 WVP : WORLDVIEWPROJECTION;
float4 Diffuse : DIFFUSE < string Object = "Geometry"; >;
bool use_texture;
texture ObjTex : MATERIALTEXTURE;
sampler ObjSamp = sampler_state { texture = <ObjTex>; MINFILTER = LINEAR; };
float4 VS(float4 p : POSITION, uniform bool t) : POSITION { return mul(p, WVP); }
float4 PS(uniform bool t) : COLOR0 { return t ? tex2D(ObjSamp, 0) : Diffuse; }
technique MainTec0 < string MMDPass = "object"; bool UseTexture = false; > {
    pass DrawObject { CullMode = NONE; VertexShader = compile vs_3_0 VS(false);
        PixelShader = compile ps_3_0 PS(false); }
}
technique EdgeTec < string MMDPass = "edge"; > { }
sampler DefSampler : register(s0);
sampler MMDSamp1 : register( S1 );
technique ZplotTec < string MMDPass = "zplot"; > { }
technique11 T11 { pass P { } }
