include $(sort $(wildcard $(BR2_EXTERNAL_EXT4DIST_PATH)/package/*/*.mk))
