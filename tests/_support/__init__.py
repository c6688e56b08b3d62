"""What the tests share: literal reference definitions (``reference*``), hypothesis
strategies (``strategies``) and the paths of the repository (``paths``)."""
