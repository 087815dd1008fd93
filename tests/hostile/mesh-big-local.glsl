// loop: Tri
// field: Area float Tri
float big[4194304];
big[i % 4194304u] = 1.0;
TriArea = big[(i * 7u) % 4194304u];
