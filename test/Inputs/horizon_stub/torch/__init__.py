# Minimal torch stand-in: the dtypes the emitter writes, and load() for sensitivity tables.
class _DType:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


float16 = _DType("float16")
float32 = _DType("float32")


def load(path):
    return {"loaded_from": path}
