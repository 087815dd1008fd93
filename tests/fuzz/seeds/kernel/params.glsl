// param: Weight float = 0.5
// param: Tolerance float = 0.0001
// param: Moved int
// param: Shift vec3 = 1, 2, 3
// field: Pair vec4[2] Tri
// field: Bytes i8vec3 Ver
// loop: Tri
TriPair[0] = vec4(Par.Weight);
