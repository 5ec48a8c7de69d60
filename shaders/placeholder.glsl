// placeholder: real shaders land with the renderer issue
void main() {}
