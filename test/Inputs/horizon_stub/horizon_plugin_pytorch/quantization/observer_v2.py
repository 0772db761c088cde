class HistogramObserver:
    pass


class MinMaxObserver:
    pass


class MSEObserver:
    pass
