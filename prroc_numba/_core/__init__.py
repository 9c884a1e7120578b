"""The in-memory core: the batch and its curve keys, input resolution, packing, curves
given as points, and the reduced table.
"""
