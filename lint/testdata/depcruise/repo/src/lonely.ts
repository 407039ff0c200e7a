export const lonely = 1;
