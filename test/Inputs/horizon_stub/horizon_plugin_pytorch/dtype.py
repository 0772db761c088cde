class QuantDType:
    def __init__(self, name, qmin):
        self.name = name
        self.min = qmin
        self.max = -qmin - 1

    def __repr__(self):
        return self.name


qint4 = QuantDType("qint4", -8)
qint8 = QuantDType("qint8", -128)
qint16 = QuantDType("qint16", -32768)
