// shaders/depth_fs.glsl - shadow map: depth only.
void main()
{
}
