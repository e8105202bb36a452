# placeholder, replaced by the search core
def version():
    return 0
