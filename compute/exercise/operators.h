// Each lab's operators for the exercises, one file a lab (compute/exercise/<lab>.cpp).
#pragma once
#include "compute/exercise/operator.h"

namespace exercise {

std::vector<std::unique_ptr<Operator>>
linalg_operators();  // axpby, the dot product's tree reduction, the banded product, CG's update
std::vector<std::unique_ptr<Operator>> diffusion_operators();  // the explicit step's 5-point Laplacian
std::vector<std::unique_ptr<Operator>> floatlab_operators();   // Add12 and Mul12, the adder and multiplier probes
std::vector<std::unique_ptr<Operator>> wave_operators();       // the implicit step's right-hand side
std::vector<std::unique_ptr<Operator>> cloth_operators();      // one colour of the Gauss-Seidel relaxation
std::vector<std::unique_ptr<Operator>>
machining_operators();                                    // the Z-buffer's lowering, the brin-triangle intersection
std::vector<std::unique_ptr<Operator>> mesh_operators();  // a gather over the vertices' balls

}  // namespace exercise
