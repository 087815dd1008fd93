MeshVersionFormatted 2
Dimension 2
SolAtVertices
4
2 1 2
0.5 1 0
1.5 0 1
2.5 1 1
3.5 0 0
End
