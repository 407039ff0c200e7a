pub struct User;
