pub struct Client;
