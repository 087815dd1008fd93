// loop: Tri
// write: scatter
// field: Area float Tri
TriArea = 1.0;
