import rootpackageblue.two
