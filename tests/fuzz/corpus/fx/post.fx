float Script : STANDARDSGLOBAL < string ScriptOutput = "color"; string ScriptClass = "scene";
    string ScriptOrder = "postprocess"; > = 0.8;
float2 ViewportSize : VIEWPORTPIXELSIZE;
float Gain : CONTROLOBJECT < string name = "Ctrl.x"; string item = "Si"; >;
texture2D ScnMap : RENDERCOLORTARGET < float2 ViewPortRatio = {1.0, 1.0}; int MipLevels = 1;
    string Format = "A8R8G8B8"; >;
sampler2D ScnSamp = sampler_state { texture = <ScnMap>; MinFilter = LINEAR; AddressU = CLAMP; };
struct VS_OUT { float4 Pos : POSITION; float2 Tex : TEXCOORD0; };
VS_OUT VS(float4 Pos : POSITION, float2 Tex : TEXCOORD0) { VS_OUT o; o.Pos = Pos; o.Tex = Tex; return o; }
float4 PS(float2 Tex : TEXCOORD0) : COLOR { return tex2D(ScnSamp, Tex) * Gain; }
technique Post < string Script = "RenderColorTarget0=ScnMap;ClearSetColor=C;Clear=Color;"
    "ScriptExternal=Color;RenderColorTarget0=;Pass=Draw;"; > {
    pass Draw < string Script = "Draw=Buffer;"; > {
        ZEnable = FALSE; VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS();
    }
}
