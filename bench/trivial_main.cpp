// The start-up baseline for bench/startup.sh: a trivial C++ program (iostream,
// one line out) built with willfit's compiler, flags and link mode.
#include <iostream>

int main() {
  std::cout << "hello\n";
  return 0;
}
