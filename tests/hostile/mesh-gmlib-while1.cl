// dialect: gmlib
// loop: Tri
// data: Tmp GmlFlt Tri write
int k = 0;
while (1) { k++; }
Tmp = (float)k;
