// A variable set for a scope: the value goes in at construction and `after` is put back when the
// scope ends, by return or by exception.
#pragma once

namespace tfjsi {

template <class T>
class ScopedValue {
 public:
  ScopedValue(T& slot, T value, T after) : slot_(slot), after_(after) { slot_ = value; }
  ~ScopedValue() { slot_ = after_; }
  ScopedValue(const ScopedValue&) = delete;
  ScopedValue& operator=(const ScopedValue&) = delete;

 private:
  T& slot_;
  T after_;
};

}  // namespace tfjsi
