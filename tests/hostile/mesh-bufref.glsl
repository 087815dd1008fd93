// loop: Tri
// field: Area float Tri
#extension GL_EXT_buffer_reference : require
TriArea = 1.0;
