"""The starting game ``warpress new`` writes (``new.py``, ``template/``)."""
