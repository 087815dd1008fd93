// --portability (docs/MACOS.md): the device as MoltenVK offers one on a Mac, without fp64 in
// shaders and 64-bit buffer atomics. Every lab runs at its defaults with validation on; what
// needs the missing features is refused with its reason or left out, said.
#include "app/core/lab.h"
#include "tests/helpers.h"

TEST(Portability, EveryLabRunsAtItsDefaultsAsOnAMac) {
  for (auto& lab : lab_names()) {
    auto r = run_process(vklab_args("--headless --validate --portability --lab " + lab + " --steps 3"));
    EXPECT_EQ(r.code, 0) << lab << ": " << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << lab << ": " << r.err;
  }
}

TEST(Portability, WhatAMacLacksIsRefusedWithItsReason) {
  auto devices = run_process(vklab_args("--list-devices --portability"));
  ASSERT_EQ(devices.code, 0) << devices.err;
  EXPECT_NE(devices.out.find("fp64 no"), std::string::npos) << devices.out;
  EXPECT_NE(devices.out.find("portability layer"), std::string::npos) << devices.out;
  // SIMSURF's double-precision heights are kept by 64-bit atomics: refused, saying what to set
  auto r = run_process(vklab_args("--headless --portability --lab machining --set precision=double --steps 2"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("64-bit buffer atomics"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("precision=single"), std::string::npos) << r.err;
  // the same run where the device has them (lavapipe has)
  auto here = run_process(vklab_args("--list-devices"));
  if (here.out.find("fp64 yes") != std::string::npos) {
    r = run_process(vklab_args("--headless --lab machining --set precision=double --steps 2"));
    EXPECT_EQ(r.code, 0) << r.err;
  }
}
