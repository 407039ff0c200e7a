export const B = 1
