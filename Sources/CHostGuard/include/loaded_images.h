#ifndef MODHOST_LOADED_IMAGES_H
#define MODHOST_LOADED_IMAGES_H

/* The path the dynamic linker mapped the image holding `address` from (dladdr), or NULL. */
const char *modhost_image_path(const void *address);

#endif
