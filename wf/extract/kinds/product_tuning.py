"""Tuning data of product pages (wf/extract/kinds/product.py): the older figures stay in
wf/extract/tuning.py (PRODUCT_*)."""

# A product's purchase form (its variant pickers with each one's price, the quantity, the
# buttons) holds under this many characters; a page wrapped whole in one <form> (ASP.NET
# writes every page so) holds more, and is no purchase form.
PURCHASE_FORM_MAX = 1500
