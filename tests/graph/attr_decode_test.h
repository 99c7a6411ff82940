// The attribute-decoding suite's declaration, apart so that moc never reads the JSON snippets.
#pragma once

#include <QObject>

class AttrDecodeTest : public QObject {
  Q_OBJECT
 private slots:
  void base64();
  void scalars();
  void types();
  void shapes();
  void func();
  void lists();
  void tensor_content();
  void tensor_typed_values();
  void tensor_complex();
  void tensor_errors();
  void input_names();
};
